package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
)

// aiderRoots are the history roots of Aider's chat histories in project
// folders sift knows, as the history's entry finds them from each.
func aiderRoots(t *testing.T, folders ...string) []ingest.HistoryRoot {
	t.Helper()
	h, ok := agents.LookupHistory(agents.AiderHistory)
	if !ok || h.InProjects == nil {
		t.Fatal("no Aider history that looks in project folders")
	}
	var roots []ingest.HistoryRoot
	for _, f := range folders {
		for _, d := range h.InProjects(func(string) string { return "" }, f) {
			roots = append(roots, ingest.HistoryRoot{Agent: agents.AiderHistory, Dir: d})
		}
	}
	return roots
}

// TestImportAiderHistory imports the recorded chat histories of three
// projects in a temporary HOME, one of them known by a subfolder of its
// repository: one session per block with work in it, in its project,
// with its prompts, calls and outcome; no tokens, and a cost that says
// Aider records none. The detail renders a session again. Imported again
// unchanged, all are skipped; when Aider appends to its last session and
// starts another, those two alone are read.
func TestImportAiderHistory(t *testing.T) {
	home, _ := storedHome(t, "aider")
	src := filepath.Join(home, "src")
	head := filepath.Join(src, "aider-head")
	sub := filepath.Join(head, "aider", "coders")
	for _, d := range []string{filepath.Join(head, ".git"), sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	roots := aiderRoots(t, sub, filepath.Join(src, "aider-overloaded"), filepath.Join(src, "aider-apply"))
	if len(roots) != 3 || roots[0].Dir != filepath.Join(head, ".aider.chat.history.md") {
		t.Fatalf("roots %v, want the three projects' chat histories (the first in its git root)", roots)
	}
	s := newTestStore(t)
	// 4 sessions in aider-head, 10 in aider-overloaded, 6 in aider-apply.
	const n = 20
	if res := importHistory(t, s, roots); res.Sessions != n {
		t.Fatalf("imported %d sessions, want %d (%+v)", res.Sessions, n, res)
	}
	sessions, paths := storedSessions(t, s, agents.AiderHistory)
	const edit = "aider-20240805-193332"
	sum := sessions[edit].Summary
	if paths[edit] != filepath.Join(head, ".aider.chat.history.md")+"#"+edit || sum.WorkItemID != ingest.ProjectID(head) {
		t.Errorf("indexed as %q in %s, want the project's chat history and folder", paths[edit], sum.WorkItemID)
	}
	if sum.ToolCallCount != 2 || sum.ToolCalls[0].Name != "edit" || sum.ToolCalls[1].Name != "commit" {
		t.Errorf("calls %+v, want the edit and the commit", sum.ToolCalls)
	}
	if sum.Model != "claude-3-5-sonnet-20240620" || sum.Outcome != summary.OutcomeCompleted {
		t.Errorf("model %q, outcome %s (%s)", sum.Model, sum.Outcome, sum.OutcomeEvidence.Sentence)
	}
	if sum.InputTokens != nil || sum.OutputTokens != nil || sum.EstimatedUSD != nil || sum.CostBasis != "tokens not recorded by aider" {
		t.Errorf("tokens in %v out %v, cost %v (%q): want none, saying Aider records none",
			sum.InputTokens, sum.OutputTokens, sum.EstimatedUSD, sum.CostBasis)
	}
	// The one request failed: the model never answered, so the session
	// died before it started, by the error it ends with.
	failed := sessions["aider-20240808-135436"].Summary
	if failed.Outcome != summary.OutcomeDiedBeforeStart || !strings.Contains(failed.OutcomeEvidence.Sentence, "error entry: Unexpected error: litellm.APIConnectionError") {
		t.Errorf("overloaded request: outcome %s (%s)", failed.Outcome, failed.OutcomeEvidence.Sentence)
	}
	// Three replies: an edit asked, then two /ask questions (each written
	// again as the prompt it sends).
	three := sessions["aider-20240821-151654"].Summary
	if len(three.Turns) != 3 || three.Outcome != summary.OutcomeCompleted {
		t.Errorf("three replies: %d turns, outcome %s", len(three.Turns), three.Outcome)
	}
	if run := sessions["aider-20240821-151400"].Summary; run.ToolCallCount != 1 || run.ToolCalls[0].Name != "shell" {
		t.Errorf("--apply run: calls %+v", run.ToolCalls)
	}

	// The detail renders the session again, by its key: the chat history
	// file is the root. Another file of the project is not inside it.
	d := storedDetail(t, rootDirs(roots), paths[edit], agents.AiderHistory)
	if p := d.Conv.Prompts.Lines; len(p) != 1 || p[0].Text != "Use the Spinner instead of the inlined custom spinner" {
		t.Errorf("detail prompts %+v", p)
	}
	other := filepath.Join(head, "notes.md")
	if err := os.WriteFile(other, []byte("# aider chat started at 2024-08-05 19:33:32\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := ingest.OpenStream(rootDirs(roots), other+"#aider-20240805-193332"); f != nil || err == nil {
		if f != nil {
			f.Close()
		}
		t.Errorf("a file of the project beside its chat history opened: %v", err)
	}

	if again := importHistory(t, s, roots); again.Skipped != n || again.Sessions != 0 {
		t.Errorf("unchanged: skipped %d, read %d", again.Skipped, again.Sessions)
	}
	// Aider's lines, as aider/io.py writes them: the last session takes
	// another prompt and its reply, and another session starts.
	f, err := os.OpenFile(filepath.Join(src, "aider-overloaded", ".aider.chat.history.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString("\n#### hi  \n\nHello!\n\n" +
		"\n# aider chat started at 2024-08-08 14:00:02\n\n> Aider v0.48.2-dev  \n\n#### hi  \n\nBonjour !\n\n")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if again := importHistory(t, s, roots); again.Sessions != 2 || again.Skipped != n-1 {
		t.Errorf("grown file: read %d, skipped %d; want 2 and %d", again.Sessions, again.Skipped, n-1)
	}
	sessions, _ = storedSessions(t, s, agents.AiderHistory)
	// Its first request failed; the second was answered.
	if grown := sessions["aider-20240808-135928"].Summary; grown.Outcome != summary.OutcomeCompleted || len(grown.Turns) != 1 {
		t.Errorf("the grown session: outcome %s, %d turns", grown.Outcome, len(grown.Turns))
	}
}
