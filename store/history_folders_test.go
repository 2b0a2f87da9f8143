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

// TestProjectFolders: the folders sift knows projects by are those its
// runs recorded (sift run's working folder) and those its history
// sessions record, each once.
func TestProjectFolders(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	if got, err := s.ProjectFolders(ctx); err != nil || len(got) != 0 {
		t.Fatalf("an empty store: %q (%v)", got, err)
	}
	for _, cwd := range []string{"/src/app", "/src/app", "/home/user/projects/demo", ""} {
		if _, err := s.RecordInvocation(ctx, Invocation{WorkItemID: "ENG-1", Phase: "build", AgentKind: "claude", Cwd: cwd}); err != nil {
			t.Fatal(err)
		}
	}
	_, roots := historyHome(t)
	importHistory(t, s, roots)
	got, err := s.ProjectFolders(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"/home/USER/projects/spotter-worktrees/spotter-4te", "/home/marco/projects/spotter", "/home/user/projects/demo", "/src/app"}
	if !slices.Equal(got, want) {
		t.Fatalf("ProjectFolders %q, want %q", got, want)
	}
}
