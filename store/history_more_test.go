package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/review"
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

// TestImportDroidHistory imports Factory Droid 0.215.0's own session logs
// (~/.factory/sessions/<cwd>/<id>.jsonl, the tokens in <id>.settings.json
// beside each), the two scripts run by `droid exec` against sift's scripted
// Anthropic server: the whole one, its second shell call failing with exit
// 2; and the one a refused request ended (an agent_turn_outcome
// model_request_rejected after the user-only notice of the error). Each is
// one session keyed by Droid's id; a grown log, or a settings file whose
// tokens changed, is read again alone.
func TestImportDroidHistory(t *testing.T) {
	t.Parallel()
	home := homeOf(t, "droid")
	s := newTestStore(t)
	res := importHistory(t, s, homeRoots(home))
	if res.Sessions != 2 {
		t.Fatalf("imported %d sessions, want 2 (%+v)", res.Sessions, res)
	}
	wants := []historyWant{
		{workItem: "-tmp-drec-work", file: "f7b7cb35-5c5b-41bd-85c0-6338632b6697", agent: agents.DroidHistory,
			model: "custom:Mock-0", turns: 3, calls: 2, failedCalls: 1, input: 4500, cached: 2200, output: 120,
			outcome: summary.OutcomeCompleted},
		{workItem: "-tmp-dfail-work", file: "dfa14b09-a034-4c30-a324-ecd45cc718a9", agent: agents.DroidHistory,
			model: "custom:MockFail-0", turns: 1, calls: 1, input: 1200, output: 40, outcome: summary.OutcomeFailed},
	}
	for _, w := range wants {
		sess, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: w.workItem, FileName: w.file})
		if err != nil {
			t.Fatalf("%s/%s: %v", w.workItem, w.file, err)
		}
		checkHistorySession(t, &sess.Summary, w)
	}
	sessions := filepath.Join(home, ".factory", "sessions")
	// The detail renders a session again from its key.
	key := agents.StoredKey(filepath.Join(sessions, "-tmp-drec-work"), "f7b7cb35-5c5b-41bd-85c0-6338632b6697")
	if lines, ok, err := agents.RenderStored(key); !ok || err != nil || !bytes.Contains(lines, []byte(`{"type":"settings"`)) {
		t.Errorf("RenderStored(%s): ok %v, err %v, %d bytes without the settings line", key, ok, err, len(lines))
	}
	grow(t, filepath.Join(sessions, "-tmp-drec-work", "f7b7cb35-5c5b-41bd-85c0-6338632b6697.jsonl"))
	if res = importHistory(t, s, homeRoots(home)); res.Sessions != 1 || res.Skipped != 1 {
		t.Fatalf("after one log grew: %d sessions read, %d skipped; want 1 and 1", res.Sessions, res.Skipped)
	}
	settings := filepath.Join(sessions, "-tmp-dfail-work", "dfa14b09-a034-4c30-a324-ecd45cc718a9.settings.json")
	b, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, bytes.Replace(b, []byte(`"outputTokens": 40`), []byte(`"outputTokens": 400`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if res = importHistory(t, s, homeRoots(home)); res.Sessions != 1 || res.Skipped != 1 {
		t.Fatalf("after a settings file changed: %d sessions read, %d skipped; want 1 and 1", res.Sessions, res.Skipped)
	}
	sess, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: "-tmp-dfail-work", FileName: wants[1].file})
	if err != nil || deref(sess.Summary.OutputTokens) != 400 {
		t.Errorf("after its settings changed: output tokens %v (%v), want 400", sess.Summary.OutputTokens, err)
	}
}
