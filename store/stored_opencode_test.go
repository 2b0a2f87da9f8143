package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/detail"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// storedSessions are the sessions an import of a stored history wrote,
// by their session names, with their ingest index paths.
func storedSessions(t *testing.T, s *Store, agent agents.Kind) (map[string]review.Session, map[string]string) {
	t.Helper()
	rows, err := s.r.Query(`SELECT f.work_item_id, f.file_name, f.path FROM stream_files f
		JOIN agent_stream_summaries a ON a.work_item_id = f.work_item_id AND a.file_name = f.file_name
		WHERE a.agent_kind = ?`, string(agent))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	sessions, paths := map[string]review.Session{}, map[string]string{}
	for rows.Next() {
		var wi, file, path string
		if err := rows.Scan(&wi, &file, &path); err != nil {
			t.Fatal(err)
		}
		sess, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: wi, FileName: file})
		if err != nil {
			t.Fatal(err)
		}
		sessions[file], paths[file] = sess, path
	}
	return sessions, paths
}

// openIn opens a session's stream as the session view does, within one
// root (ingest.OpenStream); a stream that is gone is fs.ErrNotExist.
func openIn(root string) func(string) (*os.File, error) {
	return func(p string) (*os.File, error) {
		f, err := ingest.OpenStream([]string{root}, p)
		if f == nil && err == nil {
			return nil, fs.ErrNotExist
		}
		return f, err
	}
}

// TestImportOpenCodeHistory imports what opencode itself wrote, from a
// temporary HOME: two sessions of opencode 1.18.33's database and two of
// opencode 1.1.65's JSON tree (testdata/histories/opencode/PROVENANCE.md),
// each keyed by its ses_ id in the folder it records. The completed ones
// have their two bash calls (the second exits 2: failed), the tokens of
// their three model calls and end completed; the ones whose second request
// the provider refused end with its error (one turn: the refused request
// answered nothing). Unchanged they are skipped; a
// session that grows in the database is read again, alone. The detail
// renders a session again through OpenStream.
func TestImportOpenCodeHistory(t *testing.T) {
	s, roots, data := importDataHome(t, "opencode", 4)
	sessions, paths := storedSessions(t, s, agents.OpenCodeHistory)
	db, tree := filepath.Join(data, "opencode.db"), filepath.Join(data, "storage")
	cases := []ocCase{
		{"ses_db885d2fcffehHyxNrwGIb2Aq2", db, "/tmp/sift-histories/work/hello-sift", 2, 3, 1200 + 1500 + 1800, 2200, 120, summary.OutcomeCompleted, "stop"},
		{"ses_db8850ef4ffeVlKIfosrynlDF7", db, "/tmp/sift-histories/work/hello-sift", 1, 1, 1200, 0, 40, summary.OutcomeFailed, "mock: the request was refused"},
		{"ses_db88163e0ffeVhr0NyMH7orBgg", tree, "/tmp/sift-histories-legacy/work/hello-sift", 2, 3, 1200 + 1500 + 1800, 2200, 120, summary.OutcomeCompleted, "stop"},
		{"ses_db880cc4dffe0jJH47b0dZjDo4", tree, "/tmp/sift-histories-legacy/work/hello-sift", 1, 1, 1200, 0, 40, summary.OutcomeFailed, "mock: the request was refused"},
	}
	checkOCSessions(t, sessions, paths, cases)

	// The detail renders the session again, by its key.
	d := storedDetail(t, []string{data}, paths[cases[0].id], agents.OpenCodeHistory)
	c := d.Calls["call_sift01"]
	if c == nil || !strings.Contains(c.Output.String(), "opencode.json") {
		t.Errorf("the detail of the first call (ls -la) lacks its output")
	}

	// A row of a shared database may name a key whose container is a
	// link out of the history folder: it is refused, as a file's link is.
	outside := filepath.Join(t.TempDir(), "opencode.db")
	copyFile(t, filepath.Join(data, "opencode.db"), outside)
	link := filepath.Join(data, "elsewhere")
	if err := os.MkdirAll(link, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(link, "opencode.db")); err != nil {
		t.Fatal(err)
	}
	_, id, _ := agents.SplitStoredKey(paths[cases[0].id])
	f, err := ingest.OpenStream([]string{data}, agents.StoredKey(filepath.Join(link, "opencode.db"), id))
	var refused *ingest.RefusedError
	if f != nil || !errors.As(err, &refused) {
		t.Errorf("a key whose database links out of the folder: %v, %v; want refused", f, err)
	}

	if again := importHistory(t, s, roots); again.Skipped != 4 || again.Sessions != 0 {
		t.Errorf("unchanged: skipped %d, read %d", again.Skipped, again.Sessions)
	}
	// The person goes on with the refused session: a new prompt.
	w, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	const ses, at = "ses_db8850ef4ffeVlKIfosrynlDF7", 1796495700000
	for _, q := range []string{
		fmt.Sprintf(`INSERT INTO message VALUES ('msg_sift_more', '%s', %d, %d, '{"role":"user","time":{"created":%d}}')`, ses, at, at, at),
		fmt.Sprintf(`INSERT INTO part VALUES ('prt_sift_more', 'msg_sift_more', '%s', %d, %d, '{"type":"text","text":"try again"}')`, ses, at, at),
	} {
		if _, err := w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if again := importHistory(t, s, roots); again.Sessions != 1 || again.Skipped != 3 {
		t.Errorf("grown session: read %d, skipped %d; want 1 and 3", again.Sessions, again.Skipped)
	}
	sessions, _ = storedSessions(t, s, agents.OpenCodeHistory)
	if got := sessions[ses].Summary.Outcome; got == summary.OutcomeFailed {
		t.Errorf("the session went on after its error, but is still %s", got)
	}
}

// TestOpenCodeDatabaseRoot: a history whose root is a database file
// ($OPENCODE_DB=/d/o.db makes opencode's root that file) imports its
// sessions keyed by the file, and renders one again by its key, for the
// session view and `sift show`. The old OpenStream refused it: the key is
// not inside the root, it is the root. Nothing else is opened so: a key
// naming a link to the root file, or another database beside it, stays
// refused.
func TestOpenCodeDatabaseRoot(t *testing.T) {
	t.Parallel()
	home, _ := storedHome(t, "opencode")
	dir := t.TempDir()
	db := filepath.Join(dir, "o.db")
	copyFile(t, filepath.Join(home, ".local", "share", "opencode", "opencode.db"), db)
	s := newTestStore(t)
	if res := importHistory(t, s, []ingest.HistoryRoot{{Agent: agents.OpenCodeHistory, Dir: db}}); res.Sessions != 2 {
		t.Fatalf("imported %d sessions of the database, want 2 (%+v)", res.Sessions, res)
	}
	const ses = "ses_db885d2fcffehHyxNrwGIb2Aq2"
	_, paths := storedSessions(t, s, agents.OpenCodeHistory)
	if paths[ses] != agents.StoredKey(db, ses) {
		t.Fatalf("indexed as %q, want the database file and the id", paths[ses])
	}
	d, err := detail.Reader{Open: openIn(db)}.Read(paths[ses], string(agents.OpenCodeHistory))
	if err != nil {
		t.Fatalf("the detail of a session of the root database: %v", err)
	}
	if c := d.Calls["call_sift01"]; c == nil || !strings.Contains(c.Output.String(), "opencode.json") {
		t.Errorf("the detail of the first call (ls -la) lacks its output")
	}

	link, other := filepath.Join(dir, "link.db"), filepath.Join(dir, "other.db")
	if err := os.Symlink(db, link); err != nil {
		t.Fatal(err)
	}
	copyFile(t, db, other)
	for _, key := range []string{agents.StoredKey(link, ses), agents.StoredKey(other, ses), agents.StoredKey(dir, ses)} {
		f, err := ingest.OpenStream([]string{db}, key)
		var refused *ingest.RefusedError
		if f != nil || !errors.As(err, &refused) {
			if f != nil {
				f.Close()
			}
			t.Errorf("%s: %v, %v; want refused", key, f, err)
		}
	}
	// A database root that is gone has its sessions gone, as a folder's.
	if err := os.Remove(db); err != nil {
		t.Fatal(err)
	}
	if f, err := ingest.OpenStream([]string{db}, paths[ses]); f != nil || err != nil {
		t.Errorf("the root database removed: %v, %v; want nothing", f, err)
	}
}

// importDataHome imports the recorded history of an opencode-shaped
// harness from a temporary HOME into a new store, which must find want
// sessions: the store, the roots and the harness's data folder
// (~/.local/share/<harness>).
func importDataHome(t *testing.T, harness string, want int) (*Store, []ingest.HistoryRoot, string) {
	t.Helper()
	home, roots := storedHome(t, harness)
	s := newTestStore(t)
	if res := importHistory(t, s, roots); res.Sessions != want {
		t.Fatalf("imported %d sessions, want %d (%+v)", res.Sessions, want, res)
	}
	return s, roots, filepath.Join(home, ".local", "share", harness)
}

// ocCase is a session of opencode's shape a test expects: its id, the
// container it is keyed in, the folder it records, its tool calls and
// turns, tokens and outcome.
type ocCase struct {
	id, container, project string
	calls, turns           int
	in, cached, out        int64
	outcome                summary.Outcome
	evidence               string
}

// checkOCSessions checks the imported sessions of opencode's shape (the
// script of testdata/histories/opencode/PROVENANCE.md): each case's turns,
// folder, key, work item, calls (the second fails), tokens, model and
// outcome.
func checkOCSessions(t *testing.T, sessions map[string]review.Session, paths map[string]string, cases []ocCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			sess, ok := sessions[c.id]
			if !ok {
				t.Fatalf("no session %s among %v", c.id, paths)
			}
			sum := sess.Summary
			// A turn per model call that answered.
			if len(sum.Turns) != c.turns || sum.StreamCwd != c.project {
				t.Errorf("%d turns in %q, want %d in the folder it records", len(sum.Turns), sum.StreamCwd, c.turns)
			}
			if paths[c.id] != c.container+"#"+c.id {
				t.Errorf("indexed as %q, want its container and id", paths[c.id])
			}
			if sum.WorkItemID != ingest.ProjectID(c.project) {
				t.Errorf("work item %s, want the folder it records", sum.WorkItemID)
			}
			if sum.ToolCallCount != c.calls {
				t.Errorf("%d tool calls, want %d", sum.ToolCallCount, c.calls)
			}
			for i, call := range sum.ToolCalls {
				// The second call lists a missing folder: exit 2.
				if want := i == 0; call.Success == nil || *call.Success != want {
					t.Errorf("call %d (%s) success %v, want %v", i, call.Name, call.Success, want)
				}
			}
			if deref(sum.InputTokens) != c.in || deref(sum.CachedInputTokens) != c.cached || deref(sum.OutputTokens) != c.out {
				t.Errorf("tokens in %v cached %v out %v, want %d %d %d", sum.InputTokens, sum.CachedInputTokens, sum.OutputTokens, c.in, c.cached, c.out)
			}
			if sum.Model != "mock/mock-model" {
				t.Errorf("model %q", sum.Model)
			}
			if sum.Outcome != c.outcome || !strings.Contains(sum.OutcomeEvidence.Sentence, c.evidence) {
				t.Errorf("outcome %s (%s), want %s with %q", sum.Outcome, sum.OutcomeEvidence.Sentence, c.outcome, c.evidence)
			}
		})
	}

}
