package store

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/historydb/historydbtest"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
)

// gooseDB builds Goose's sessions database in a temporary HOME from its
// own schema and its own tests' messages
// (testdata/histories/goose/sessions.sql, PROVENANCE.md).
func gooseDB(t *testing.T, home string) string {
	t.Helper()
	path := filepath.Join(home, ".local", "share", "goose", "sessions", "sessions.db")
	runScript(t, path, filepath.Join(historiesFixtures, "goose", "sessions.sql"))
	return path
}

// runScript builds a harness's database at path from a SQL script.
func runScript(t *testing.T, path, script string) {
	t.Helper()
	historydbtest.RunScript(t, path, script)
}

// TestImportGooseSession imports a session of Goose's database from a
// temporary HOME: keyed by Goose's own id, in its working_dir, the text the
// person wrote (not Goose's own note, which is not userVisible), the two
// tool requests with their responses (the second failed: Tool 'read' not
// found), the session's accumulated tokens (Goose keeps no tokens per
// request), and completed by the agent's last reply. A new message reads
// it again; unchanged it is skipped.
func TestImportGooseSession(t *testing.T) {
	home, roots := storedHome(t, "goose")
	path := gooseDB(t, home)
	s := newTestStore(t)
	if res := importHistory(t, s, roots); res.Sessions != 1 {
		t.Fatalf("imported %d sessions, want 1 (%+v)", res.Sessions, res)
	}
	sess, key := storedSession(t, s, agents.GooseHistory)
	sum := sess.Summary
	if key != path+"#20251205_1" || sum.FileName != "20251205_1" || sum.WorkItemID != ingest.ProjectID("/tmp/transcripts") {
		t.Errorf("indexed as %q, %s/%s", key, sum.WorkItemID, sum.FileName)
	}
	if sum.ToolCallCount != 2 {
		t.Fatalf("%d tool calls, want 2", sum.ToolCallCount)
	}
	if c := sum.ToolCalls[0]; c.Success == nil || !*c.Success {
		t.Errorf("git branch: success %v", c.Success)
	}
	if c := sum.ToolCalls[1]; c.Success == nil || *c.Success || !strings.Contains(deref(c.Error), "not found") {
		t.Errorf("read: success %v, error %q", c.Success, deref(c.Error))
	}
	if deref(sum.InputTokens) != 6900 || deref(sum.OutputTokens) != 290 {
		t.Errorf("tokens in %v out %v, want the accumulated 6900 and 290", sum.InputTokens, sum.OutputTokens)
	}
	if sum.Outcome != summary.OutcomeCompleted {
		t.Errorf("outcome %s (%s)", sum.Outcome, sum.OutcomeEvidence.Sentence)
	}
	if sum.StreamCwd != "/tmp/transcripts" {
		t.Errorf("cwd %q", sum.StreamCwd)
	}

	if again := importHistory(t, s, roots); again.Skipped != 1 || again.Sessions != 0 {
		t.Errorf("unchanged: skipped %d, read %d", again.Skipped, again.Sessions)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES
		('20251205_1', 'user', '[{"type":"text","text":"and the ledger?"}]', 1764928900)`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if again := importHistory(t, s, roots); again.Sessions != 1 {
		t.Errorf("grown session: read %d, want 1", again.Sessions)
	}
	sess, _ = storedSession(t, s, agents.GooseHistory)
	if sess.Summary.Outcome == summary.OutcomeCompleted {
		t.Error("the person asked again after the reply, but the session is still completed")
	}
}
