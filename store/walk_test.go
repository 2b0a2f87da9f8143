package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
)

// symlink makes a symlink and fails the test when it cannot.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// sessionKeys lists the stored sessions as workItem/fileName, sorted.
func sessionKeys(t *testing.T, s *Store) []string {
	t.Helper()
	rows, err := pageRows(s.ListSessions(context.Background(), review.Query{}))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.WorkItemID+"/"+r.FileName)
	}
	slices.Sort(out)
	return out
}

// failedNames lists the failures' paths relative to root, sorted.
func failedNames(res ingest.Result, root string) []string {
	var out []string
	for _, f := range res.Failed {
		rel, err := filepath.Rel(root, f.Path)
		if err != nil {
			rel = f.Path
		}
		out = append(out, rel+": "+f.Reason)
	}
	slices.Sort(out)
	return out
}

// linkedLogs lays out a logs folder with symlinks of every kind: to a
// file and a folder outside it (relative and absolute), through a folder
// link that leaves it, in loops, and to a file and a folder inside it.
func linkedLogs(t *testing.T) (dir, logs string) {
	t.Helper()
	dir = t.TempDir()
	logs = filepath.Join(dir, "logs")
	outside := filepath.Join(dir, "outside")
	run := filepath.Join(fixtures, "claude", "evolve-2.1.7-run1-write-file.jsonl")
	copyFile(t, run, filepath.Join(outside, "passwd"))
	copyFile(t, run, filepath.Join(outside, "dir", "work-1-000001.jsonl"))
	copyFile(t, run, filepath.Join(logs, "ENG-1", "work-1-a1b2c3.jsonl"))
	copyFile(t, run, filepath.Join(logs, "ENG-5", "work-1-5555aa.jsonl"))
	symlink(t, "../../outside/passwd", filepath.Join(logs, "ENG-1", "passwd.jsonl"))
	symlink(t, filepath.Join(outside, "passwd"), filepath.Join(logs, "ENG-1", "abs.jsonl"))
	symlink(t, "../outside/dir", filepath.Join(logs, "ENG-2"))
	symlink(t, "../ENG-2/work-1-000001.jsonl", filepath.Join(logs, "ENG-7", "escape.jsonl"))
	symlink(t, ".", filepath.Join(logs, "ENG-3", "loop"))
	symlink(t, "b.jsonl", filepath.Join(logs, "ENG-3", "a.jsonl"))
	symlink(t, "a.jsonl", filepath.Join(logs, "ENG-3", "b.jsonl"))
	symlink(t, "../ENG-5/work-1-5555aa.jsonl", filepath.Join(logs, "ENG-4", "work-1-4444aa.jsonl"))
	symlink(t, filepath.Join(logs, "ENG-5", "work-1-5555aa.jsonl"), filepath.Join(logs, "ENG-4", "abs-1-4444bb.jsonl"))
	symlink(t, "ENG-5", filepath.Join(logs, "ENG-6"))
	return dir, logs
}

// TestImportDoesNotFollowLinksOutOfRoot walks a logs folder whose links
// lead out of it, in loops and within it: only files inside the folder
// are read, the links that leave it or loop are reported, and the walk
// ends. The folder given through a symlink of its own is walked the same.
func TestImportDoesNotFollowLinksOutOfRoot(t *testing.T) {
	dir, logs := linkedLogs(t)
	symlink(t, "logs", filepath.Join(dir, "logs-link"))
	want := []string{"ENG-1/work-1-a1b2c3.jsonl", "ENG-4/abs-1-4444bb.jsonl", "ENG-4/work-1-4444aa.jsonl", "ENG-5/work-1-5555aa.jsonl"}
	for _, root := range []string{logs, filepath.Join(dir, "logs-link")} {
		t.Run(filepath.Base(root), func(t *testing.T) {
			s := newTestStore(t)
			res, err := ingest.Import(context.Background(), s, []string{root}, tiered(ingest.Options{}), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := sessionKeys(t, s); !slices.Equal(got, want) {
				t.Errorf("sessions %q, want %q", got, want)
			}
			failed := failedNames(res, logs)
			if len(failed) != 6 {
				t.Errorf("failures %q, want the 4 links that leave the folder and the 2 of the loop", failed)
			}
			for _, f := range failed {
				outside := strings.HasPrefix(f, "ENG-1/") || strings.HasPrefix(f, "ENG-2:") || strings.HasPrefix(f, "ENG-7/")
				if outside != strings.Contains(f, "outside the folder") {
					t.Errorf("failure %q", f)
				}
			}
		})
	}
}

// TestImportReadsANamedLinkAsAsked reads a file named on the command
// line wherever its link leads: the user asked for it.
func TestImportReadsANamedLinkAsAsked(t *testing.T) {
	_, logs := linkedLogs(t)
	s := newTestStore(t)
	mustImport(t, s, filepath.Join(logs, "ENG-1", "passwd.jsonl"))
	if got := sessionKeys(t, s); !slices.Equal(got, []string{"ENG-1/passwd.jsonl"}) {
		t.Fatalf("sessions %q", got)
	}
}

// TestImportLinkSwappedAfterTheWalk replaces a file the walk found with a
// link to outside the folder before it is read: the file is opened
// through the root, so the read fails instead of leaving the folder, for
// the file and for the links the walk resolved to it.
func TestImportLinkSwappedAfterTheWalk(t *testing.T) {
	dir, logs := linkedLogs(t)
	found := ingest.Find([]string{logs})
	if len(found.Failed) != 6 {
		t.Fatalf("failures %v", found.Failed)
	}
	file := filepath.Join(logs, "ENG-5", "work-1-5555aa.jsonl")
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(dir, "outside", "passwd"), file)
	s := newTestStore(t)
	res, err := ingest.ImportFound(context.Background(), s, found, tiered(ingest.Options{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sessionKeys(t, s), []string{"ENG-1/work-1-a1b2c3.jsonl"}; !slices.Equal(got, want) {
		t.Fatalf("sessions %q, want %q", got, want)
	}
	if len(res.Failed) != 9 {
		t.Fatalf("failures %q, want the 6 of the walk and the 3 reads of the swapped file", failedNames(res, logs))
	}
}

// TestHistoryDoesNotFollowLinksOutOfRoot does the same for a history
// root: a project folder and a session file linked from outside are not
// read; a session linked from inside is.
func TestHistoryDoesNotFollowLinksOutOfRoot(t *testing.T) {
	dir := t.TempDir()
	projects := filepath.Join(dir, "claude", "projects")
	src := filepath.Join(historyFixtures, "claude", "spotter-2.1.38-short-session.jsonl")
	copyFile(t, src, filepath.Join(projects, "-home-a", "s1.jsonl"))
	copyFile(t, src, filepath.Join(dir, "elsewhere", "-home-b", "s2.jsonl"))
	copyFile(t, src, filepath.Join(dir, "elsewhere", "s3.jsonl"))
	symlink(t, "../../elsewhere/-home-b", filepath.Join(projects, "-home-b"))
	symlink(t, "../../../elsewhere/s3.jsonl", filepath.Join(projects, "-home-a", "s3.jsonl"))
	symlink(t, "s1.jsonl", filepath.Join(projects, "-home-a", "s4.jsonl"))
	symlink(t, ".", filepath.Join(projects, "-home-a", "loop"))
	s := newTestStore(t)
	res, err := ingest.ImportHistory(context.Background(), s, []ingest.HistoryRoot{{Agent: agents.ClaudeHistory, Dir: projects}}, tiered(ingest.Options{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sessionKeys(t, s), []string{"-home-a/s1.jsonl", "-home-a/s4.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("sessions %q, want %q", got, want)
	}
	failed := failedNames(res, projects)
	if len(failed) != 2 || !strings.HasPrefix(failed[0], "-home-a/s3.jsonl: ") || !strings.HasPrefix(failed[1], "-home-b: ") {
		t.Errorf("failures %q, want -home-a/s3.jsonl and -home-b", failed)
	}
}

// TestRebuildDoesNotFollowAKnownFileOut replaces a file the store imported
// with a link to a file elsewhere: rebuilding from the store's index, and
// completing the work item, read the files it knows only within their
// own folders, so the link is reported and not read.
func TestRebuildDoesNotFollowAKnownFileOut(t *testing.T) {
	dir, logs := linkedLogs(t)
	s := newTestStore(t)
	file := filepath.Join(logs, "ENG-1", "work-1-a1b2c3.jsonl")
	mustImport(t, s, filepath.Join(logs, "ENG-1", "work-1-a1b2c3.jsonl"), filepath.Join(logs, "ENG-5"))
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(dir, "outside", "passwd"), file)
	res, err := ingest.Rebuild(context.Background(), s, nil, tiered(ingest.Options{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sessionKeys(t, s), []string{"ENG-5/work-1-5555aa.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("after rebuild: sessions %q, want %q", got, want)
	}
	if f := failedNames(res, logs); len(f) != 1 || !strings.Contains(f[0], "outside the folder") {
		t.Errorf("after rebuild: failures %q", f)
	}

	// A work item completed walks its known files' folders.
	s = newTestStore(t)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(fixtures, "claude", "evolve-2.1.7-run1-write-file.jsonl"), file)
	if _, err := s.RecordInvocation(context.Background(), Invocation{WorkItemID: "ENG-1", Phase: "work", Iteration: 1,
		AgentKind: "claude", File: file, Start: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(dir, "outside", "passwd"), file)
	res, err = ingest.CompleteWorkItem(context.Background(), s, "ENG-1", nil, tiered(ingest.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if got := sessionKeys(t, s); len(got) != 0 {
		t.Errorf("after completing the work item: sessions %q, want none", got)
	}
}
