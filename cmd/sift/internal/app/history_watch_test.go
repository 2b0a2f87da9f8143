package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

const spotterID = "55604662-cf2a-4331-851a-ec234028f8ca"

// claudeProjects returns a Claude Code projects folder holding the
// spotter session as recorded in folder /home/marco/projects/spotter, and
// the spotter transcript to copy more sessions from.
func claudeProjects(t *testing.T) (string, string) {
	t.Helper()
	src, err := os.ReadFile("../../../../testdata/history/claude/spotter-2.1.38-short-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "projects")
	writeSession(t, dir, "-home-marco-projects-spotter", spotterID, string(src))
	return dir, string(src)
}

// writeSession writes a Claude Code session file id into a project folder,
// the transcript's folder and session id replaced when it is another's.
func writeSession(t *testing.T, projects, project, id, transcript string) string {
	t.Helper()
	body := strings.ReplaceAll(transcript, spotterID, id)
	if cwd := "/" + strings.ReplaceAll(strings.TrimPrefix(project, "-"), "-", "/"); project != "-home-marco-projects-spotter" {
		body = strings.ReplaceAll(body, "/home/marco/projects/spotter", cwd)
	}
	path := filepath.Join(projects, project, id+".jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "sift.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestHistoryWatch: the first pass imports the history; a pass over
// unchanged folders imports nothing (it reads no file and records no
// import); a grown session is read again alone, the unchanged one skipped
// by the ingest index; a new session in a new project is imported and
// heard as new. Each pass that wrote sessions is heard.
func TestHistoryWatch(t *testing.T) {
	ctx := context.Background()
	projects, transcript := claudeProjects(t)
	other := writeSession(t, projects, "-srv-work-spotter", "0d5e3c8a-1111-4222-8333-444455556666", transcript)
	st := openStore(t)
	env := NewEnv()
	w := NewHistoryWatch(st, &env, []ingest.HistoryRoot{{Agent: agents.ClaudeHistory, Dir: projects}})
	news, imports := 0, 0
	w.OnNew = func() { news++ }
	w.OnImport = func() { imports++ }

	res, err := w.First(ctx, func(ImportProgress) {})
	if err != nil || res.Files != 2 || res.Sessions != 2 {
		t.Fatalf("first pass: %+v, %v; want 2 files, 2 sessions", res, err)
	}
	runs, err := st.LastImports(ctx)
	if err != nil || len(runs) != 1 || runs[0].Source != ingest.SourceHistory {
		t.Fatalf("the first pass's import record: %+v, %v", runs, err)
	}

	if res, imported, err := w.pass(ctx); err != nil || imported {
		t.Fatalf("a pass over unchanged folders imported: %+v, %v", res, err)
	}
	if again, err := st.LastImports(ctx); err != nil || again[0].Started != runs[0].Started {
		t.Fatalf("a pass over unchanged folders recorded an import: %+v, %v", again, err)
	}

	f, err := os.OpenFile(other, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"user","cwd":"/srv/work/spotter","sessionId":"0d5e3c8a-1111-4222-8333-444455556666","message":{"role":"user","content":"and now?"},"uuid":"u-9","timestamp":"2026-02-10T21:20:00.000Z"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	res, imported, err := w.pass(ctx)
	if err != nil || !imported || res.Sessions != 1 || res.Skipped != 1 {
		t.Fatalf("a pass after a session grew: %+v, imported %t, %v; want the grown one read, the other skipped", res, imported, err)
	}
	if news != 0 || imports != 1 {
		t.Fatalf("a grown session: heard %d new, %d imports; want 0 and 1", news, imports)
	}

	writeSession(t, projects, "-tmp-ccwork2", "7e2f0000-1111-4222-8333-444455556666", transcript)
	res, imported, err = w.pass(ctx)
	if err != nil || !imported || res.Sessions != 1 || res.Skipped != 2 || news != 1 {
		t.Fatalf("a pass after a new session: %+v, imported %t, heard %d, %v", res, imported, news, err)
	}
}

// TestInboxStoreNamesProjects: the inbox's store names each history
// session by the folder its session records, the parent folders added
// where two projects end alike, in the page, the session opened and the
// follow-ups; a captured run keeps its work item; the keys do not change.
func TestInboxStoreNamesProjects(t *testing.T) {
	ctx := context.Background()
	projects, transcript := claudeProjects(t)
	st := openStore(t)
	env := NewEnv()
	if _, err := NewHistoryWatch(st, &env, []ingest.HistoryRoot{{Agent: agents.ClaudeHistory, Dir: projects}}).First(ctx, func(ImportProgress) {}); err != nil {
		t.Fatal(err)
	}
	names := NewProjectNames(st)
	if err := names.Load(ctx); err != nil {
		t.Fatal(err)
	}
	in := InboxStore{Store: Store{st}, Names: names}
	page, err := in.ListSessions(ctx, review.Query{})
	if err != nil || len(page.Sessions) != 1 || page.Sessions[0].Project != "spotter" {
		t.Fatalf("one project: %+v, %v; want it named spotter", page.Sessions, err)
	}

	// A second project whose folder ends alike, imported by another
	// process: both are told apart as soon as its session is listed.
	writeSession(t, projects, "-srv-work-spotter", "0d5e3c8a-1111-4222-8333-444455556666", transcript)
	if _, err := ingest.ImportHistory(ctx, st, []ingest.HistoryRoot{{Agent: agents.ClaudeHistory, Dir: projects}}, ingest.Options{}, nil); err != nil {
		t.Fatal(err)
	}
	page, err = in.ListSessions(ctx, review.Query{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range page.Sessions {
		got[s.WorkItemID] = s.Project
	}
	if got["-home-marco-projects-spotter"] != "projects/spotter" || got["-srv-work-spotter"] != "work/spotter" {
		t.Fatalf("two projects ending in spotter named %v", got)
	}
	k := review.SessionKey{WorkItemID: "-srv-work-spotter", FileName: "0d5e3c8a-1111-4222-8333-444455556666.jsonl"}
	s, err := in.GetSession(ctx, k)
	if err != nil || s.Project != "work/spotter" || s.Key() != k {
		t.Fatalf("the session opened: project %q, key %v (%v)", s.Project, s.Key(), err)
	}
	if err := in.Decide(ctx, review.Decision{Session: k, Kind: review.NeedsFollowup, Note: "why?", Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	fs, err := in.Followups(ctx)
	if err != nil || len(fs) != 1 || fs[0].Session.Project != "work/spotter" {
		t.Fatalf("the follow-up's session: %+v, %v", fs, err)
	}

	// A history session that records no folder is named by a short hash
	// of its work item; any other session is not named.
	ss := []review.Session{{}, {}}
	ss[0].WorkItemID, ss[0].Phase = strings.Repeat("ab", 32), ingest.PhaseInteractive
	ss[1].WorkItemID, ss[1].Phase = "ENG-1", "work"
	names.name(ss)
	if ss[0].Project != review.ShortHash(ss[0].WorkItemID) || ss[1].Project != "" {
		t.Fatalf("no folder: %q; a captured run: %q", ss[0].Project, ss[1].Project)
	}
}
