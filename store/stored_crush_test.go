package store

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
)

// crushProject builds a Crush project in a temporary HOME: its database
// (<project>/.crush/crush.db) from Crush's own migrations and the test's
// sessions (testdata/histories/crush/crush.sql, PROVENANCE.md), and the
// projects.json Crush keeps in its global data folder naming it.
func crushProject(t *testing.T, home string) (project, db string) {
	t.Helper()
	project = filepath.Join(home, "src", "foo")
	db = filepath.Join(project, ".crush", "crush.db")
	runScript(t, db, filepath.Join(historiesFixtures, "crush", "crush.sql"))
	writeFile(t, filepath.Join(home, ".local", "share", "crush", "projects.json"), fmt.Appendf(nil,
		`{"projects":[{"path":%q,"data_dir":%q,"last_accessed":"2025-12-05T10:00:09Z"}]}`, project, filepath.Dir(db)))
	return project, db
}

// TestImportCrushSessions imports the sessions of a Crush project that
// Crush's projects.json names: each keyed by its id in the project's
// folder, its tool calls with their results (the bash call's is_error
// fails it), the session's tokens and cost (Crush keeps them per session
// only), completed by its end_turn finish or ended by its cancel; the
// detail renders one again. A session that grows is read again, alone.
func TestImportCrushSessions(t *testing.T) {
	home, _ := storedHome(t, "crush")
	project, db := crushProject(t, home)
	// The project's data folder is found through projects.json.
	roots := homeRoots(home)
	s := newTestStore(t)
	if res := importHistory(t, s, roots); res.Sessions != 2 {
		t.Fatalf("imported %d sessions, want 2 (%+v)", res.Sessions, res)
	}
	sessions, paths := storedSessions(t, s, agents.CrushHistory)
	const done, canceled = "2f1d0b8e-6c1a-4a55-9b53-0c7e2d6f4a10", "8c3e4f21-0d9b-4b7e-a2c6-5e1f7a9b3d42"
	sum := sessions[done].Summary
	if paths[done] != db+"#"+done || sum.WorkItemID != ingest.ProjectID(project) {
		t.Errorf("indexed as %q in %s, want the project's database and folder", paths[done], sum.WorkItemID)
	}
	if sum.ToolCallCount != 2 {
		t.Fatalf("%d tool calls, want 2", sum.ToolCallCount)
	}
	if c := sum.ToolCalls[0]; c.Name != "view" || c.Success == nil || !*c.Success {
		t.Errorf("view: %s success %v", c.Name, c.Success)
	}
	if c := sum.ToolCalls[1]; c.Success == nil || *c.Success || !strings.Contains(deref(c.Error), "No such file") {
		t.Errorf("bash: success %v, error %q", c.Success, deref(c.Error))
	}
	if deref(sum.InputTokens) != 2400 || deref(sum.OutputTokens) != 180 {
		t.Errorf("tokens in %v out %v, want 2400 and 180", sum.InputTokens, sum.OutputTokens)
	}
	if sum.EstimatedUSD == nil || *sum.EstimatedUSD != 0.0123 || sum.CostSource != summary.CostHarness {
		t.Errorf("cost %v (%s), want Crush's 0.0123", sum.EstimatedUSD, sum.CostSource)
	}
	if sum.Model != "anthropic/claude-sonnet-4-5" {
		t.Errorf("model %q", sum.Model)
	}
	if sum.Outcome != summary.OutcomeCompleted {
		t.Errorf("outcome %s (%s)", sum.Outcome, sum.OutcomeEvidence.Sentence)
	}
	c := sessions[canceled].Summary
	if c.Outcome == summary.OutcomeCompleted || !strings.Contains(c.OutcomeEvidence.Sentence, "canceled") {
		t.Errorf("canceled session: outcome %s (%s)", c.Outcome, c.OutcomeEvidence.Sentence)
	}

	// The detail renders the session again, by its key, inside the
	// project's data folder (a history folder).
	d := storedDetail(t, rootDirs(roots), paths[done], agents.CrushHistory)
	if c := d.Calls["call_ok"]; c == nil || !strings.Contains(c.Output.String(), "file contents") {
		t.Errorf("the detail of the view call lacks its result")
	}

	if again := importHistory(t, s, roots); again.Skipped != 2 || again.Sessions != 0 {
		t.Errorf("unchanged: skipped %d, read %d", again.Skipped, again.Sessions)
	}
	w, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Exec(`INSERT INTO messages (id, session_id, role, parts, created_at, updated_at)
		VALUES ('m7', ?, 'user', '[{"type":"text","data":{"text":"go on"}}]', 1764929100, 1764929100)`, canceled)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if again := importHistory(t, s, roots); again.Sessions != 1 || again.Skipped != 1 {
		t.Errorf("grown session: read %d, skipped %d; want 1 and 1", again.Sessions, again.Skipped)
	}
}
