package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/store"
)

// TestInboxWatchesHistoryOnlyWhenOn: the inbox watches the agent
// histories when the configuration's History says so, and, unset, once
// the store holds history sessions (an import of them left it so); never
// when History is false.
func TestInboxWatchesHistoryOnlyWhenOn(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "sift.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	on, off := true, false
	watches := func(history *bool) bool {
		t.Helper()
		sf := &storeFlags{Env: app.NewEnv()}
		sf.Cfg.History = history
		_, w, err := historyOf(ctx, st, sf)
		if err != nil {
			t.Fatal(err)
		}
		return w != nil
	}
	if watches(nil) || !watches(&on) || watches(&off) {
		t.Fatalf("a store without history: unset %t, true %t, false %t; want false, true, false", watches(nil), watches(&on), watches(&off))
	}
	src, err := os.ReadFile("../../testdata/history/claude/spotter-2.1.38-short-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	projects := filepath.Join(dir, "projects")
	if err := os.MkdirAll(filepath.Join(projects, "-p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(projects, "-p", "s.jsonl"), src, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.ImportHistory(ctx, st, []ingest.HistoryRoot{{Agent: agents.ClaudeHistory, Dir: projects}}, ingest.Options{}, nil); err != nil {
		t.Fatal(err)
	}
	if !watches(nil) || watches(&off) {
		t.Fatalf("a store holding history: unset %t, false %t; want true, false", watches(nil), watches(&off))
	}
}
