package store

import (
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/summary"
)

// TestImportKimiHistory imports Kimi CLI's wire logs
// (~/.kimi/sessions/<md5 of the work dir>/<session id>/wire.jsonl, the
// work dirs named by ~/.kimi/kimi.json), made of the wire messages kimi-cli
// 1.49.0's own end-to-end tests record from its scripted provider
// (testdata/histories/kimi/PROVENANCE.md): two sessions that open with a
// prompt answered with its token usage, then ask for a shell call: in the
// first it is approved and answered; in the second the user rejects it,
// which ends the turn on the failed call with no answer (sift cannot tell
// how that turn ended: unknown).
func TestImportKimiHistory(t *testing.T) {
	t.Parallel()
	checkHarnessHistory(t, "kimi", []historyWant{
		{workItem: "-tmp-krec-work", file: "8a6e4f12-7c3b-4d9a-a1e5-0b9c2d7f6e83.jsonl", agent: agents.KimiHistory,
			turns: 3, calls: 1, input: 5, output: 2, outcome: summary.OutcomeCompleted},
		{workItem: "-tmp-kfail-work", file: "c51d9e07-2b8f-4a63-8e4c-7f1a0d3b5e26.jsonl", agent: agents.KimiHistory,
			turns: 2, calls: 1, failedCalls: 1, input: 5, output: 2, outcome: summary.OutcomeUnknown},
	})
}
