package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/agentsift/sift/core/summary"
)

// appendFile appends b to the file at path.
func appendFile(t testing.TB, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestTailReadsOnlyWhatIsAppended writes a real stream in three pieces,
// the second ending in the middle of a line: each Advance sees the
// complete lines so far, the half line only once it is whole, and in the
// end the same lines and tool calls as the whole file's summary, having
// read each byte once.
func TestTailReadsOnlyWhatIsAppended(t *testing.T) {
	src := "../../testdata/streams/claude/evolve-2.1.5-skill-bash-read-image.jsonl"
	full, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := AnalyzeFile(src, summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(full, []byte("\n"))
	path := filepath.Join(t.TempDir(), "work-1-abcdef.jsonl")
	first := bytes.Join(lines[:5], nil)
	appendFile(t, path, first)
	tl, err := NewTail(path, "claude")
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	if l := tl.Live(); l.Lines != 5 || l.Bytes != int64(len(first)) {
		t.Fatalf("after 5 lines: %d lines, %d bytes read, want 5, %d", l.Lines, l.Bytes, len(first))
	}
	half := bytes.Join(lines[5:12], nil)
	cut := len(half) - len(lines[11])/2
	appendFile(t, path, half[:cut])
	l, err := tl.Advance()
	if err != nil || l.Lines != 11 {
		t.Fatalf("with line 12 half written: %d lines (%v), want 11", l.Lines, err)
	}
	appendFile(t, path, half[cut:])
	appendFile(t, path, bytes.Join(lines[12:], nil))
	if l, err = tl.Advance(); err != nil {
		t.Fatal(err)
	}
	if l.Lines != want.LineCount || l.ToolCalls != want.ToolCallCount || l.Bytes != int64(len(full)) {
		t.Fatalf("at the end: %d lines, %d calls, %d bytes read; the file's summary has %d lines, %d calls, %d bytes",
			l.Lines, l.ToolCalls, l.Bytes, want.LineCount, want.ToolCallCount, len(full))
	}
	if !l.Ended || l.Tool != "" || l.Waiting(time.Now(), time.Second) != "" {
		t.Errorf("a finished stream: ended %v, tool %q", l.Ended, l.Tool)
	}
	if l.SessionID != want.SessionID || l.SessionID == "" {
		t.Errorf("session %q, want %q", l.SessionID, want.SessionID)
	}
}

// TestTailKnowsTheCurrentTool: between a call and its result the live
// view names the call's tool; a line that waits past the stall threshold
// is a stall.
func TestTailKnowsTheCurrentTool(t *testing.T) {
	src := "../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl"
	full, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(full, []byte("\n"))
	at := -1
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"type":"tool_use"`)) {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatal("the fixture has no tool call")
	}
	path := filepath.Join(t.TempDir(), "work-1-abcdef.jsonl")
	appendFile(t, path, bytes.Join(lines[:at+1], nil))
	tl, err := NewTail(path, "claude")
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	l := tl.Live()
	if l.Tool != "Write" || l.ToolCalls != 1 {
		t.Fatalf("in the call: tool %q, %d calls, want Write, 1", l.Tool, l.ToolCalls)
	}
	if w := l.Waiting(l.LastRead.Add(2*time.Second), time.Second); w != "stall" {
		t.Errorf("two seconds without a line: waiting %q, want stall", w)
	}
	s := l.Summary("claude", time.Time{}, "stall")
	if !s.Flagged || len(s.Flags) != 1 || s.Flags[0] != "stall" {
		t.Errorf("a stalled live summary's flags: %v", s.Flags)
	}
	appendFile(t, path, bytes.Join(lines[at+1:], nil))
	if l, err = tl.Advance(); err != nil || l.Tool != "" {
		t.Fatalf("after the result: tool %q (%v)", l.Tool, err)
	}
}

// BenchmarkTailAppend1MB appends 1 MB of real stream lines to a stream of
// 1 GB (SIFT_TAIL_BENCH_MB sets another size) that a Tail has caught up
// with, and advances the Tail: reading and parsing the new bytes and
// updating the live view, and the live summary made of it.
func BenchmarkTailAppend1MB(b *testing.B) {
	mb := 1024
	if v, err := strconv.Atoi(os.Getenv("SIFT_TAIL_BENCH_MB")); err == nil && v > 0 {
		mb = v
	}
	src, err := os.ReadFile("../../testdata/streams/claude/claude-orchestrator-task-subagent-reserialized.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var block []byte
	for len(block) < 1<<20 {
		block = append(block, src...)
	}
	path := filepath.Join(b.TempDir(), "work-1-abcdef.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	for range mb {
		if _, err := f.Write(block); err != nil {
			b.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	tl, err := NewTail(path, "claude")
	if err != nil {
		b.Fatal(err)
	}
	defer tl.Close()
	if tl.Live().Bytes != int64(mb*len(block)) {
		b.Fatalf("caught up with %d bytes of %d", tl.Live().Bytes, mb*len(block))
	}
	w, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	b.SetBytes(int64(len(block)))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if _, err := w.Write(block); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		l, err := tl.Advance()
		if err != nil {
			b.Fatal(err)
		}
		_ = l.Summary("claude", time.Time{}, l.Waiting(time.Now(), 0))
	}
}
