package search

// Help is the query language, as `sift help search` prints it and the
// inbox's help shows it: one line each.
func Help() []string {
	return []string{
		"A search finds the sessions whose text has every word, in any part:",
		"the prompt, what the model said, tool names and inputs, tool and",
		"harness errors, output lines, the final message, flags, notes, and",
		"the agent, model, work item and phase.",
		"",
		`  droid rework        both words (letters and digits; case is ignored)`,
		`  "npm test"          a phrase: the words in this order, in one part`,
		`  -flaky  -"go vet"   leave out the sessions that have it`,
		`  timeo*              words that start so (the inbox: the word typed last)`,
		`  src/a.go  rm -rf    punctuation splits words: src/a.go is "src a go";`,
		`                      -rf leaves out "rf", "rm -rf" finds the command`,
		"",
		"Filters (a - before one inverts it):",
		`  agent:codex         the agent (from its start: agent:co is codex, copilot)`,
		`  tool:Bash           a tool the session called (from its start)`,
		`  flag:stall          a flag (tool_failed, approval_required, harness_error,`,
		`                      token_spike, stall, unfinished_tool, run_failed, truncated)`,
		`  model:opus          the model (anywhere in its name)`,
		`  outcome:failed      how the run ended: success, failed, incomplete, unknown`,
		`  decision:needs      a current decision on the session, a turn or a call:`,
		`                      reviewed, needs_followup, ignored; decision:none, undecided`,
		`  reviewer:ana        a decision by this reviewer (from the start of the id)`,
		`  since:24h           active within 90m, 24h, 7d, 2w, or since 2026-01-02`,
		`  cost>0.5            cost in USD: cost>0.5, cost<1, cost>=2, cost<=0.1`,
	}
}
