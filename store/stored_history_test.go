package store

import (
	"context"
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

// historiesFixtures holds the recorded histories of the harnesses that keep
// their sessions in databases or folder trees, each under home/ as the
// harness lays it out (testdata/histories/<harness>/PROVENANCE.md).
const historiesFixtures = "../testdata/histories"

// storedHome copies a harness's recorded home into a temporary HOME and
// returns it with the history roots every harness's entry finds there.
func storedHome(t *testing.T, harness string) (string, []ingest.HistoryRoot) {
	t.Helper()
	home := t.TempDir()
	src := filepath.Join(historiesFixtures, harness, "home")
	if _, err := os.Stat(src); err != nil {
		// A database the test builds: no recorded home.
		src = t.TempDir()
	}
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		copyFile(t, path, filepath.Join(home, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return home, homeRoots(home)
}

// homeRoots are the history roots every harness's entry finds under a
// HOME as it is now.
func homeRoots(home string) []ingest.HistoryRoot {
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	var roots []ingest.HistoryRoot
	for _, h := range agents.Harnesses() {
		if h.History != nil {
			for _, d := range h.History.Dirs(getenv, home) {
				roots = append(roots, ingest.HistoryRoot{Agent: h.History.Parser.Kind(), Dir: d})
			}
		}
	}
	return roots
}

// storedDetail reads a stored session's detail again by its key, as the
// inbox does: through OpenStream, inside the folders given.
func storedDetail(t *testing.T, dirs []string, key string, kind agents.Kind) *detail.File {
	t.Helper()
	d, err := detail.Reader{Open: func(p string) (*os.File, error) {
		f, err := ingest.OpenStream(dirs, p)
		if f == nil && err == nil {
			return nil, fs.ErrNotExist
		}
		return f, err
	}}.Read(key, string(kind))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// rootDirs are the folders of history roots.
func rootDirs(roots []ingest.HistoryRoot) []string {
	var dirs []string
	for _, r := range roots {
		dirs = append(dirs, r.Dir)
	}
	return dirs
}

// storedSession is the one session an import of a stored history wrote,
// with its ingest index path.
func storedSession(t *testing.T, s *Store, agent agents.Kind) (review.Session, string) {
	t.Helper()
	var wi, file, path string
	err := s.r.QueryRow(`SELECT f.work_item_id, f.file_name, f.path FROM stream_files f
		JOIN agent_stream_summaries a ON a.work_item_id = f.work_item_id AND a.file_name = f.file_name
		WHERE a.agent_kind = ?`, string(agent)).Scan(&wi, &file, &path)
	if err != nil {
		t.Fatalf("no %s session: %v", agent, err)
	}
	sess, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: wi, FileName: file})
	if err != nil {
		t.Fatal(err)
	}
	return sess, path
}

// TestImportClineTask imports a real Cline task folder (Cline 3.51.0, VS
// Code 1.108.1) from a temporary HOME: one session keyed by the task id,
// in the project its environment details name, with its 47 tool calls and
// their results, the tokens and cost of its 47 requests as the extension
// showed them, and completed by its completion_result. Imported again
// unchanged it is skipped; grown, it is read again. The detail reads the
// task again through OpenStream.
func TestImportClineTask(t *testing.T) {
	home, roots := storedHome(t, "cline")
	s := newTestStore(t)
	res := importHistory(t, s, roots)
	if res.Sessions != 1 {
		t.Fatalf("imported %d sessions, want 1 (%+v)", res.Sessions, res)
	}
	sess, path := storedSession(t, s, agents.ClineHistory)
	sum := sess.Summary
	task := filepath.Join(home, ".config", "Code", "User", "globalStorage", "saoudrizwan.claude-dev", "tasks", "1769053680585")
	if path != task+"#1769053680585" {
		t.Errorf("indexed as %q, want the task folder and its id", path)
	}
	if sum.FileName != "1769053680585" || sum.WorkItemID != ingest.ProjectID("/workspaces/Online-Card-Architecture") {
		t.Errorf("key %s/%s, want the project of its environment details and the task id", sum.WorkItemID, sum.FileName)
	}
	if sum.ToolCallCount != 47 {
		t.Errorf("%d tool calls, want 47", sum.ToolCallCount)
	}
	open := 0
	for _, c := range sum.ToolCalls {
		if c.Success == nil {
			t.Logf("without its result: %s %s, line %d", c.Name, c.ID, c.Line)
			open++
		}
	}
	if open != 0 {
		t.Errorf("%d tool calls left without their result", open)
	}
	// The sums of its ui_messages' api_req_started: tokensIn 470,
	// cacheReads 1,514,932, cacheWrites 66,105, tokensOut 23,389, cost
	// $1.05461835.
	if got := deref(sum.InputTokens); got != 470+1514932+66105 {
		t.Errorf("input tokens %d", got)
	}
	if deref(sum.OutputTokens) != 23389 || deref(sum.CachedInputTokens) != 1514932 || deref(sum.CacheWriteTokens) != 66105 {
		t.Errorf("tokens out %v cached %v written %v", sum.OutputTokens, sum.CachedInputTokens, sum.CacheWriteTokens)
	}
	if sum.EstimatedUSD == nil || *sum.EstimatedUSD < 1.0546 || *sum.EstimatedUSD > 1.0547 || sum.CostSource != summary.CostHarness {
		t.Errorf("cost %v (%s), want the reported $1.0546", sum.EstimatedUSD, sum.CostSource)
	}
	if sum.Outcome != summary.OutcomeCompleted || !strings.Contains(sum.OutcomeEvidence.Sentence, "completion_result") {
		t.Errorf("outcome %s (%s)", sum.Outcome, sum.OutcomeEvidence.Sentence)
	}
	if sum.Model != "claude-sonnet-4-5-20250929" {
		t.Errorf("model %q", sum.Model)
	}
	// A turn per request: the conversation's 47 assistant messages.
	if len(sum.Turns) != 47 {
		t.Errorf("%d turns, want 47", len(sum.Turns))
	}

	// The detail reads the task again, by its key.
	d := storedDetail(t, []string{filepath.Dir(task)}, path, agents.ClineHistory)
	c := d.Calls[sum.ToolCalls[0].ID]
	if c == nil || !strings.Contains(c.Output.String(), "public class ActionSystem") {
		t.Errorf("the detail of the first call (read_file ActionSystem.cs) lacks its result")
	}

	if again := importHistory(t, s, roots); again.Skipped != 1 || again.Sessions != 0 {
		t.Errorf("unchanged task: skipped %d, read %d", again.Skipped, again.Sessions)
	}
	ui := filepath.Join(task, "ui_messages.json")
	b, err := os.ReadFile(ui)
	if err != nil {
		t.Fatal(err)
	}
	grown := strings.TrimSuffix(strings.TrimSpace(string(b)), "]") +
		`,{"ts":1769061800000,"type":"say","say":"user_feedback","text":"one more thing"}]`
	writeFile(t, ui, []byte(grown))
	if again := importHistory(t, s, roots); again.Sessions != 1 {
		t.Errorf("grown task: read %d sessions, want 1", again.Sessions)
	}
	sess, _ = storedSession(t, s, agents.ClineHistory)
	if sess.Summary.Outcome == summary.OutcomeCompleted {
		t.Error("the task went on after its completion, but is still completed")
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
