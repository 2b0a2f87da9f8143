package search

// Help is the query language, as `sift help search` prints it and the
// inbox's help shows it: one line each.
func Help() []string {
	return append([]string{
		"A search finds the sessions whose text has every word: the prompt,",
		"what the model said, tool names and inputs, errors, output lines,",
		"the final message, flags, notes, the agent, model, work item, phase.",
		"",
		`  droid rework      both words (letters and digits, in any case)`,
		`  "npm test"        a phrase: these words in this order`,
		`  -flaky -"go vet"  leave out the sessions that have it`,
		`  timeo*            words that start so (in the inbox: the last word)`,
		`  src/a.go          punctuation splits words: the phrase "src a go";`,
		`                    rm -rf leaves out "rf": "rm -rf" finds the command`,
		"",
		"Filters (-agent:codex inverts one):",
		`  agent:codex       the agent, from its start (agent:co: codex, copilot)`,
		`  tool:Bash         a tool the session called, from its start`,
		`  flag:stall        a flag, from its start (flag:tool: tool_failed)`,
		`  model:opus        the model, anywhere in its name`,
		`  outcome:failed    failed, died_before_start, interrupted, unknown, completed`,
		`  decision:needs    a current decision, from its start; decision:none`,
		`  reviewer:ana      a decision by this reviewer, from the id's start`,
		`  since:24h         active within 90m, 24h, 7d, 2w, or since 2026-01-02`,
		`  cost>0.5          in USD: cost>0.5, cost<1, cost>=2, cost<=0.1`,
		`  is:flagged        a flag or an open follow-up; is:undecided: no decision`,
		"",
		"Reviewing together (-unclaimed inverts one):",
	}, teamHelp()...)
}
