package summary

import (
	"bytes"
	"os"
	"testing"
)

// TestWantReviewEvents: the predicate sees the finished summary and
// decides whether review events are built.
func TestWantReviewEvents(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []bool{true, false} {
		var seen *Summary
		opt := Options{WantReviewEvents: func(s *Summary) bool { seen = s; return want }}
		sum, rev, err := Analyze(bytes.NewReader(data), opt)
		if err != nil {
			t.Fatal(err)
		}
		if seen != sum || sum.ToolCallCount != 1 {
			t.Fatalf("predicate saw %p, summary %p with %d calls", seen, sum, sum.ToolCallCount)
		}
		if (len(rev) > 0) != want {
			t.Fatalf("want=%v: %d review events", want, len(rev))
		}
	}
}
