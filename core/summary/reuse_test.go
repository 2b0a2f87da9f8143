package summary

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
)

// summarized is a stream's summary and review events as JSON.
func summarized(t *testing.T, b *Builder, path string, opt Options) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := agents.Default().Parse(f, agents.Options{Agent: agents.Kind(opt.Agent), Borrow: true}, b.Add)
	if err != nil {
		t.Fatal(err)
	}
	s, rev := b.Finish(st)
	out, err := json.Marshal(struct {
		S *Summary
		R []ReviewEvent
	}{s, rev})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestResetBuilderSummarizesAsANewOne: one builder Reset from stream to
// stream, through every fixture and back (so that each stream meets
// records, tables and lists a larger or smaller one left), summarizes
// each as a new builder does, projected onto a window or not.
func TestResetBuilderSummarizesAsANewOne(t *testing.T) {
	t.Parallel()
	paths := fixtures(t)
	hist, _ := filepath.Glob(filepath.Join(streamsDir, "..", "history", "*", "*.jsonl"))
	paths = append(paths, hist...)
	window := func(i int) Options {
		if i%3 != 0 {
			return Options{}
		}
		start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		return Options{Start: start, End: start.Add(time.Hour)}
	}
	want := make([]string, len(paths))
	for i, p := range paths {
		want[i] = summarized(t, NewBuilder(window(i)), p, window(i))
	}
	b := NewBuilder(Options{})
	b.scribble = true // a string kept past Reset in the blocks shows
	for round := range 2 {
		for j := range paths {
			i := j
			if round == 1 {
				i = len(paths) - 1 - j
			}
			b.Reset(window(i))
			if got := summarized(t, b, paths[i], window(i)); got != want[i] {
				t.Fatalf("round %d, %s: a reset builder's summary differs from a new one's:\n got %.400s\nwant %.400s", round, paths[i], got, want[i])
			}
		}
	}
}
