package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/layout"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// TestSweepOnceRecordsOnlyAWholePass runs the retention pass the commands
// share: the store tells the file sweep that a session with an open
// follow-up keeps its file, forgets the file the sweep deleted, and the
// pass is recorded; a pass that did not complete is not.
func TestSweepOnceRecordsOnlyAWholePass(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if _, err := layout.MakeRoot(logs); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(runFixture)
	if err != nil {
		t.Fatal(err)
	}
	kept, swept := filepath.Join(logs, "wi-1", "work-1-aaaaaa.jsonl"), filepath.Join(logs, "wi-1", "work-2-bbbbbb.jsonl")
	if err := os.MkdirAll(filepath.Dir(kept), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{kept, swept} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(filepath.Join(dir, "sift.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if res, err := ingest.Import(ctx, st, []string{logs}, ingest.Options{}, nil); err != nil || res.Sessions != 2 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	if err := st.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi-1", FileName: filepath.Base(kept)}, Kind: review.NeedsFollowup}); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-20 * 24 * time.Hour)
	for _, p := range []string{kept, swept} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	sf := &storeFlags{Env: app.Env{Logs: logs, Cfg: config.Default()}}
	sf.Cfg.RetainedDays = 14

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := app.Sweep(cancelled, st, &sf.Env, "test"); err == nil {
		t.Fatal("a cancelled pass reported no error")
	}
	if last, err := st.LastSweep(ctx); err != nil || !last.IsZero() {
		t.Fatalf("a pass that did not complete was recorded: %v, %v", last, err)
	}
	res, err := app.Sweep(ctx, st, &sf.Env, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(swept); !os.IsNotExist(err) || res.FilesDeleted != 1 || res.FilesKept != 1 {
		t.Fatalf("sweep: %+v (swept file: %v)", res, err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Fatalf("the file of an open follow-up was swept: %v", err)
	}
	if idx, _ := st.StreamFiles(ctx, "wi-1"); len(idx) != 1 || idx[0].Path != kept {
		t.Errorf("ingest index after the sweep: %+v", idx)
	}
	if last, err := st.LastSweep(ctx); err != nil || last.IsZero() {
		t.Fatalf("the pass was not recorded: %v, %v", last, err)
	}
}
