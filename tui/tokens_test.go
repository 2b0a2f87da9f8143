package tui

import (
	"testing"
)

// TestReconcileTokens explains, on real streams, why a session's turns
// count other tokens than its total, or that they agree.
func TestReconcileTokens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		cause     tokenCause
		in, out   int64
		note      string
	}{
		{"claude subagent calls are in the turns, not in the result's usage",
			"claude/claude-orchestrator-task-subagent-reserialized.jsonl", tokensSubagents, 150311, 2658,
			"turns count +150k in, +2.7k out: 35 subagent calls in t1, which the harness's total leaves out"},
		{"claude prints a message's usage before it ends",
			"claude/evolve-2.1.5-skill-bash-read-image.jsonl", tokensEarlyUsage, 0, -802,
			"turns count −802 out: the harness printed each message's usage before it ended"},
		{"a resumed qwen session's total counts its earlier run",
			"qwen/evolve-0.7.0-run2-resumed.jsonl", tokensUnitemised, -41223, -90,
			"the harness's total counts 41.2k in and 90 out more than the turns report: usage the stream does not itemise"},
		{"opencode's turns add up", "opencode/ortus-1.18.27-three-runs-mcp.jsonl", tokensAgree, 0, 0, ""},
		{"codex prints only its run total: its turns say so", "codex/takopi-banteg-commands-reasoning.jsonl", tokensRunOnly, 0, 0,
			"no turn reports its tokens: the harness printed only its run total, so the turns show —"},
		{"no usage at all", "droid/vibekanban-edits-and-execution.jsonl", tokensAgree, 0, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := analyzeFixture(t, fixture{workItem: "W", name: "work-1-abcdef.jsonl", src: tc.src})
			c := reconcileTokens(&s.Summary)
			if c.cause != tc.cause || c.in != tc.in || c.out != tc.out {
				t.Errorf("cause %d, in %+d, out %+d; want %d, %+d, %+d", c.cause, c.in, c.out, tc.cause, tc.in, tc.out)
			}
			if got := c.note(); got != tc.note {
				t.Errorf("note:\n got %q\nwant %q", got, tc.note)
			}
		})
	}
}
