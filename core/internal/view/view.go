// Package view is sift's one use of unsafe: a string that shares the
// bytes of a buffer instead of copying them. Its callers are the parser's
// lent events (agents.Options.Borrow) and its owner's test of what points
// into a line, the summary's reused record strings and a call input's
// text, and the redactor's scans of a line.
//
// The rule: a view must not outlive its buffer's contents. Whoever takes
// a view of a buffer that is written again (a line, an array reused from
// line to line or from stream to stream) copies what it keeps before the
// buffer is written, and never keys a lasting table or stores a record
// with a view. A view that outlives its buffer shows another line's or
// another file's text: in sift, whose job includes keeping secrets out of
// its database, that is a privacy bug, not only a wrong answer.
//
// The callers' tests overwrite ("scribble") what they release and check
// that nothing kept changed: the parser's scribble mode
// (TestBorrowedEventsEqualOwnedOnes), the summary builder's at Reset
// (TestResetBuilderSummarizesAsANewOne), a call input's
// (TestInputSummaryKeepsNoInput), and the store's rows of one import
// against those of each file alone (TestImportRowsDoNotDependOnOtherFiles).
// TestNoUnsafeOutsideView fails when another product file imports unsafe.
package view

import (
	"sync/atomic"
	"unsafe"
)

// String returns b's bytes as a string without copying them. The string
// is valid only while b's bytes are not written; it must not be kept.
func String(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Within reports whether s is non-empty and its bytes lie within b's: s
// is then a view of b, to copy before b is written again.
func Within(s string, b []byte) bool {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return len(s) != 0 && uintptr(unsafe.Pointer(unsafe.StringData(s)))-lo < uintptr(len(b))
}

// Scribble overwrites b's bytes (pass b[:cap(b)] for a whole array), for
// tests of callers in a scribble mode: a view of a released buffer then
// shows garbage rather than the text it once held.
func Scribble(b []byte) {
	for i := range b {
		b[i] = '~'
	}
}

// scribbleAll is ScribbleAll's switch.
var scribbleAll atomic.Bool

// ScribbleAll turns on (or off) the scribble mode of every parse and
// every summary builder of the process, for an end-to-end test that
// reaches neither's own (core/ingest's TestScribbledImportEqualsPlain):
// correct code gives the same results either way.
func ScribbleAll(on bool) { scribbleAll.Store(on) }

// ScribblingAll reports whether ScribbleAll turned the scribble modes on.
func ScribblingAll() bool { return scribbleAll.Load() }
