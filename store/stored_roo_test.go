package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// rooTask is what one recorded Roo Code task holds
// (testdata/histories/roo/PROVENANCE.md), counted in its own files.
type rooTask struct {
	id string
	// calls are the tool calls the assistant wrote in XML, by tool;
	// unanswered the new_task calls left without a result, the task
	// closed while it waited for approval and resumed later with new
	// instructions (or, the last, never).
	calls      map[string]int
	unanswered int
	// turns: one per assistant message, except one that answers
	// Roo's "[ERROR] You did not use a tool" reminder, which carries no
	// prompt or result and so continues the turn before it.
	turns int
	// The sums of the api_req_started requests: the prompt is tokensIn
	// plus the cache's reads and writes for the "anthropic" protocol,
	// tokensIn alone for "openai" (where it holds the cache already).
	prompt, out, reads, writes int64
	cost                       float64
	model                      string
}

var rooTasks = []rooTask{{
	id: "bc93a6f7-cd2e-4686-a832-46e3cd14d338",
	calls: map[string]int{"update_todo_list": 16, "new_task": 6, "use_mcp_tool": 4,
		"ask_followup_question": 3, "attempt_completion": 1},
	unanswered: 3, turns: 30,
	// 30 anthropic requests: tokensIn 285, cacheReads 1,039,280,
	// cacheWrites 689,253.
	prompt: 285 + 1039280 + 689253, out: 16461, reads: 1039280, writes: 689253, cost: 2.90000775,
	model: "claude-sonnet-4-20250514",
}, {
	id: "ac8aa7b4-319c-4925-a139-4f4adca81921",
	calls: map[string]int{"update_todo_list": 6, "new_task": 6, "read_file": 5, "search_files": 4,
		"use_mcp_tool": 3, "switch_mode": 1, "attempt_completion": 1},
	unanswered: 4, turns: 29,
	// 39 anthropic requests and 20 openai ones (Gemini 2.5 Pro).
	prompt: 3664799, out: 47864, reads: 2078579, writes: 1272896, cost: 5.9719801035,
	// The last request's environment details name Gemini 2.5 Pro.
	model: "google/gemini-2.5-pro",
}}

// TestImportRooTasks imports two real Roo Code task folders (Roo Code of
// August and September 2025, XML tool calls) from a temporary HOME: one
// session per task keyed by its id, the tool calls written in the
// assistant's text with the results Roo sent back in the next user
// message, the tokens and cost of every request as the extension showed
// them, the model the environment details name, and interrupted, as both
// end waiting on a new_task the person never approved. Imported again
// unchanged they are skipped.
func TestImportRooTasks(t *testing.T) {
	home, roots := storedHome(t, "roo")
	s := newTestStore(t)
	res := importHistory(t, s, roots)
	if res.Sessions != len(rooTasks) || len(res.Failed) != 0 {
		t.Fatalf("imported %d sessions, want %d (%+v)", res.Sessions, len(rooTasks), res)
	}
	tasks := filepath.Join(home, ".config", "Code", "User", "globalStorage", "rooveterinaryinc.roo-cline", "tasks")
	for _, want := range rooTasks {
		t.Run(want.id[:8], func(t *testing.T) {
			var wi, path string
			err := s.r.QueryRow(`SELECT f.work_item_id, f.path FROM stream_files f
				JOIN agent_stream_summaries a ON a.work_item_id = f.work_item_id AND a.file_name = f.file_name
				WHERE a.agent_kind = ? AND f.file_name = ?`, string(agents.RooHistory), want.id).Scan(&wi, &path)
			if err != nil {
				t.Fatalf("no roo session %s: %v", want.id, err)
			}
			if task := filepath.Join(tasks, want.id); path != task+"#"+want.id {
				t.Errorf("indexed as %q, want the task folder and its id", path)
			}
			sess, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: wi, FileName: want.id})
			if err != nil {
				t.Fatal(err)
			}
			sum := sess.Summary
			got := map[string]int{}
			unanswered := 0
			for _, c := range sum.ToolCalls {
				got[c.Name]++
				if c.Success == nil {
					if c.Name != "new_task" {
						t.Errorf("%s %s has no result", c.Name, c.ID)
					}
					unanswered++
				}
			}
			if sum.ToolCallCount != len(sum.ToolCalls) || len(got) != len(want.calls) {
				t.Errorf("tool calls %v (%d), want %v", got, sum.ToolCallCount, want.calls)
			}
			for name, n := range want.calls {
				if got[name] != n {
					t.Errorf("%d %s calls, want %d", got[name], name, n)
				}
			}
			if unanswered != want.unanswered {
				t.Errorf("%d calls without a result, want %d", unanswered, want.unanswered)
			}
			if len(sum.Turns) != want.turns {
				t.Errorf("%d turns, want %d", len(sum.Turns), want.turns)
			}
			if deref(sum.InputTokens) != want.prompt || deref(sum.OutputTokens) != want.out ||
				deref(sum.CachedInputTokens) != want.reads || deref(sum.CacheWriteTokens) != want.writes {
				t.Errorf("tokens in %v out %v cached %v written %v, want %d %d %d %d", deref(sum.InputTokens),
					deref(sum.OutputTokens), deref(sum.CachedInputTokens), deref(sum.CacheWriteTokens),
					want.prompt, want.out, want.reads, want.writes)
			}
			if c := deref(sum.EstimatedUSD); c < want.cost-1e-6 || c > want.cost+1e-6 || sum.CostSource != summary.CostHarness {
				t.Errorf("cost %v (%s), want the reported $%v", c, sum.CostSource, want.cost)
			}
			if sum.Model != want.model {
				t.Errorf("model %q, want %q", sum.Model, want.model)
			}
			if sum.Outcome != summary.OutcomeInterrupted || !strings.Contains(sum.OutcomeEvidence.Sentence, "new_task") {
				t.Errorf("outcome %s (%s), want interrupted inside new_task", sum.Outcome, sum.OutcomeEvidence.Sentence)
			}
		})
	}
	if again := importHistory(t, s, roots); again.Skipped != len(rooTasks) || again.Sessions != 0 {
		t.Errorf("unchanged tasks: skipped %d, read %d", again.Skipped, again.Sessions)
	}
	// A task the person finishes: its completion ends it.
	ui := filepath.Join(tasks, rooTasks[0].id, "ui_messages.json")
	b, err := os.ReadFile(ui)
	if err != nil {
		t.Fatal(err)
	}
	grown := strings.TrimSuffix(strings.TrimSpace(string(b)), "]") +
		`,{"ts":1759050900000,"type":"say","say":"completion_result","text":"done","partial":false}]`
	writeFile(t, ui, []byte(grown))
	if again := importHistory(t, s, roots); again.Sessions != 1 {
		t.Errorf("grown task: read %d sessions, want 1", again.Sessions)
	}
	var wi string
	if err := s.r.QueryRow(`SELECT work_item_id FROM stream_files WHERE file_name = ?`, rooTasks[0].id).Scan(&wi); err != nil {
		t.Fatal(err)
	}
	sess, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: wi, FileName: rooTasks[0].id})
	if err != nil {
		t.Fatal(err)
	}
	if sess.Summary.Outcome != summary.OutcomeCompleted {
		t.Errorf("completed task: outcome %s (%s)", sess.Summary.Outcome, sess.Summary.OutcomeEvidence.Sentence)
	}
}
