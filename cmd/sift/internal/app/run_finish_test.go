package app

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/store"
)

// countingStore is the real store, counting the sessions it is handed.
type countingStore struct {
	*store.Store
	sessions atomic.Int64
}

// ImportWriter implements ingest.Store: the store's writer, counting.
func (c *countingStore) ImportWriter(ctx context.Context) (ingest.Writer, error) {
	w, err := c.Store.ImportWriter(ctx)
	return countingWriter{w, &c.sessions}, err
}

// countingWriter counts the sessions it encodes.
type countingWriter struct {
	ingest.Writer
	n *atomic.Int64
}

// Encode implements ingest.Writer, counting.
func (c countingWriter) Encode(s *ingest.Session) (ingest.Row, error) {
	c.n.Add(1)
	return c.Writer.Encode(s)
}

// TestConfiguredRunSummarizesItsFileOnce: when `sift run` is done, its
// file is read once, with the configured thresholds (recording the end
// reads nothing), and the summary it reports is that one.
func TestConfiguredRunSummarizesItsFileOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "sift.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	file := filepath.Join(dir, "logs", "wi-1", "work-1-a1b2c3.jsonl")
	b, err := os.ReadFile("../../../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	// The stream has no timestamps: its five lines are projected over the
	// run's minute, some seconds apart.
	start := time.Now().Add(-time.Minute)
	id, err := st.RecordInvocation(ctx, store.Invocation{WorkItemID: "wi-1", Phase: "work", Iteration: 1,
		AgentKind: "claude", File: file, Start: start})
	if err != nil {
		t.Fatal(err)
	}
	cs := &countingStore{Store: st}
	configured := ingest.Options{Summary: summary.Options{StallThreshold: time.Second}}
	sum, err := finishRun(ctx, cs, id, "wi-1", capture.Result{File: file, Start: start, End: start.Add(time.Minute)}, configured)
	if err != nil {
		t.Fatal(err)
	}
	if n := cs.sessions.Load(); n != 1 {
		t.Fatalf("the run's file was summarized %d times, want once", n)
	}
	def, _, err := ingest.AnalyzeFile(file, summary.Options{Agent: "claude", Start: start, End: start.Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if sum == nil || sum.StallCount == 0 || def.StallCount != 0 {
		t.Fatalf("the stored summary does not follow the configured stall threshold: %+v (default: %d stalls)", sum, def.StallCount)
	}
	if state, _ := st.WorkItemState(ctx, "wi-1"); state != store.WorkItemTerminal {
		t.Fatalf("work item %q after its last run", state)
	}
}
