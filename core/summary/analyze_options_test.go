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

// TestNoReviewEvents: a builder told that no review events are wanted
// returns none, and the same summary, for every fixture.
func TestNoReviewEvents(t *testing.T) {
	t.Parallel()
	for _, path := range fixtures(t) {
		opt := Options{Agent: string(folderAgent(path))}
		want, _, err := AnalyzeFile(path, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.NoReviewEvents = true
		got, rev, err := AnalyzeFile(path, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(rev) != 0 {
			t.Errorf("%s: %d review events with NoReviewEvents", path, len(rev))
		}
		if g, w := encoderJSON(t, got), encoderJSON(t, want); !bytes.Equal(g, w) {
			t.Errorf("%s: the summary differs with NoReviewEvents:\n got %s\nwant %s", path, g, w)
		}
	}
}
