package store

import (
	"context"
	"slices"
	"testing"
)

// TestHistoryFolders: a store of captured runs alone holds no history;
// once the histories are imported it does, and names the folders their
// sessions record: Claude Code's and Codex's own cwd, and the project
// root Gemini CLI's projects.json gives a chat that records none.
func TestHistoryFolders(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	importFixtures(t, s, "ENG-1")
	if held, err := s.HoldsHistory(ctx); err != nil || held {
		t.Fatalf("a store of captured runs: HoldsHistory %v (%v), want false", held, err)
	}
	if got, err := s.HistoryFolders(ctx); err != nil || len(got) != 0 {
		t.Fatalf("a store of captured runs: HistoryFolders %q (%v), want none", got, err)
	}
	_, roots := historyHome(t)
	importHistory(t, s, roots)
	if held, err := s.HoldsHistory(ctx); err != nil || !held {
		t.Fatalf("after an import of the histories: HoldsHistory %v (%v), want true", held, err)
	}
	got, err := s.HistoryFolders(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"/home/USER/projects/spotter-worktrees/spotter-4te", "/home/marco/projects/spotter", "/home/user/projects/demo"}
	if !slices.Equal(got, want) {
		t.Fatalf("HistoryFolders %q, want %q", got, want)
	}
}
