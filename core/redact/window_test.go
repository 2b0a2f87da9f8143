package redact

import (
	"strings"
	"testing"
)

// stream pushes pieces through a Window and flushes it; it returns the
// released pieces joined, and checks that every piece came out once.
func stream(t *testing.T, pieces []string) string {
	t.Helper()
	var w Window
	var out []string
	for _, p := range pieces {
		out = append(out, w.Push(p)...)
	}
	out = append(out, w.Flush()...)
	if len(out) != len(pieces) {
		t.Fatalf("%d pieces in, %d out", len(pieces), len(out))
	}
	return strings.Join(out, "")
}

// splitAt cuts s at the given increasing positions.
func splitAt(s string, at ...int) []string {
	var out []string
	last := 0
	for _, a := range at {
		out = append(out, s[last:a])
		last = a
	}
	return append(out, s[last:])
}

// checkStreamed compares a streamed message with String on the whole.
func checkStreamed(t *testing.T, whole, got, secret, kind, how string) {
	t.Helper()
	if leaked(got, secret) {
		t.Fatalf("%s: secret survived:\n in: %q\nout: %q", how, whole, got)
	}
	if !strings.Contains(got, marker(kind)) {
		t.Fatalf("%s: no %s in %q", how, marker(kind), got)
	}
	if want := String(whole); got != want {
		t.Fatalf("%s: streamed differs from String:\nstreamed %q\n  String %q", how, got, want)
	}
}

// TestWindowSplitEverywhere splits every corpus sample at every byte of
// its secret into two pieces, and at every pair of bytes into three.
func TestWindowSplitEverywhere(t *testing.T) {
	t.Parallel()
	for _, tc := range corpus() {
		t.Run(tc.name, func(t *testing.T) {
			whole := strings.Replace(tc.text, "%s", tc.secret, 1)
			lo := strings.Index(whole, tc.secret)
			hi := lo + len(tc.secret)
			for i := lo; i <= hi; i++ {
				got := stream(t, splitAt(whole, i))
				checkStreamed(t, whole, got, tc.secret, tc.kind, "split at "+itoa(i))
			}
			// Every pair of cuts in the secret, or for a long secret
			// every cut with a second one up to 16 bytes after it.
			for i := lo; i <= hi; i++ {
				last := hi
				if len(tc.secret) > 120 {
					last = min(hi, i+16)
				}
				for j := i; j <= last; j++ {
					got := stream(t, splitAt(whole, i, j))
					checkStreamed(t, whole, got, tc.secret, tc.kind, "split at "+itoa(i)+","+itoa(j))
				}
			}
		})
	}
}

// TestWindowPastTheWindow streams every corpus sample inside a long reply
// in small deltas, so that text before it and after it is released while
// the secret arrives.
func TestWindowPastTheWindow(t *testing.T) {
	t.Parallel()
	before := strings.Repeat("The build passed and the tests ran in 4.2 seconds.\n", 12)
	after := strings.Repeat("\nNext I will update the changelog and open a pull request.", 12)
	for _, tc := range corpus() {
		whole := before + strings.Replace(tc.text, "%s", tc.secret, 1) + after
		for _, size := range []int{1, 7, 50} {
			var at []int
			for p := size; p < len(whole); p += size {
				at = append(at, p)
			}
			got := stream(t, splitAt(whole, at...))
			checkStreamed(t, whole, got, tc.secret, tc.kind, tc.name+" in deltas of "+itoa(size))
		}
	}
}

// TestWindowLongKeyBlock streams a key block much longer than the window
// in small deltas: it is replaced when its start leaves the window, the
// rest of it is dropped, and the text after its END line is kept.
func TestWindowLongKeyBlock(t *testing.T) {
	t.Parallel()
	var body strings.Builder
	for i := range 30 {
		body.WriteString(fake("body"+itoa(i), aB64, 64) + "\n")
	}
	block := "-----BEGIN OPENSSH PRIVATE KEY-----\n" + body.String() + "-----END OPENSSH PRIVATE KEY-----"
	whole := "Here is the key:\n" + block + "\nand the rest of the reply."
	for _, size := range []int{1, 5, 13, 100} {
		var at []int
		for p := size; p < len(whole); p += size {
			at = append(at, p)
		}
		got := stream(t, splitAt(whole, at...))
		checkStreamed(t, whole, got, block, "private-key", "key block in deltas of "+itoa(size))
		for i := range 30 {
			if strings.Contains(got, fake("body"+itoa(i), aB64, 64)[:16]) {
				t.Fatalf("deltas of %d: line %d of the key survived: %q", size, i, got)
			}
		}
	}
	// A block without its END line: everything after BEGIN goes.
	cut := "Here is the key:\n" + block[:len(block)/2]
	var at []int
	for p := 9; p < len(cut); p += 9 {
		at = append(at, p)
	}
	got := stream(t, splitAt(cut, at...))
	if got != "Here is the key:\n"+marker("private-key") {
		t.Fatalf("cut key block streamed as %q", got)
	}
}

// TestWindowHoldsBoundedText streams 256 KiB in small deltas and checks
// that the Window never holds more than its window of released context,
// its window of held text and the piece that straddles it.
func TestWindowHoldsBoundedText(t *testing.T) {
	t.Parallel()
	unit := "Reading config: password=" + fake("mem", aAlnum, 12) + " token=" + tok("ghp_", aAlnum, 36) +
		" and more words to fill the line.\n"
	text := strings.Repeat(unit, (256<<10)/len(unit))
	var w Window
	var out strings.Builder
	for p := 0; p < len(text); p += 5 {
		piece := text[p:min(p+5, len(text))]
		for _, r := range w.Push(piece) {
			out.WriteString(r)
		}
		if held := w.Held(); held > 2*DeltaWindow+len(piece)+64 {
			t.Fatalf("after %d bytes the window holds %d bytes", p+len(piece), held)
		}
		if len(w.held) > maxHeldDeltas+1 {
			t.Fatalf("after %d bytes the window holds %d pieces", p+len(piece), len(w.held))
		}
	}
	for _, r := range w.Flush() {
		out.WriteString(r)
	}
	if got, want := out.String(), String(text); got != want {
		t.Fatalf("streamed text differs from String (%d and %d bytes)", len(got), len(want))
	}
	// Empty pieces add no bytes but still count.
	for range 10 * maxHeldDeltas {
		w.Push("")
		if len(w.held) > maxHeldDeltas+1 {
			t.Fatalf("the window holds %d empty pieces", len(w.held))
		}
	}
}

// FuzzWindow streams any text cut into pieces (the first byte of the
// input sets the cut lengths): no piece is lost, and a message that fits
// in the window comes out as String redacts it whole.
func FuzzWindow(f *testing.F) {
	for _, tc := range corpus() {
		f.Add(byte(7), strings.Replace(tc.text, "%s", tc.secret, 1))
	}
	f.Fuzz(func(t *testing.T, step byte, whole string) {
		size := int(step%32) + 1
		var pieces []string
		for p := 0; p < len(whole); p += size {
			pieces = append(pieces, whole[p:min(p+size, len(whole))])
		}
		pieces = append(pieces, "")
		got := stream(t, pieces)
		if len(whole) <= DeltaWindow {
			if want := String(whole); got != want {
				t.Fatalf("streamed %q, String %q", got, want)
			}
		}
	})
}
