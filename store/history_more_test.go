package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// TestKimiDroidTokensBesideCcusage shows sift's tokens of the Kimi and
// Droid material beside ccusage's, read from the same files by the rules
// of ccusage's adapters (ryoppippi/ccusage rust/crates/ccusage/src/adapter/
// kimi and droid, commit 5816e640; ccusage 18.0.11 reads neither): ccusage
// counts the uncached input (Kimi's input_other, Droid's inputTokens) apart
// from the cache's reads and writes, where sift's input holds all three.
// The sums agree: sift's input less its cached and written shares is
// ccusage's input, its cached share ccusage's cache reads, and the outputs
// are equal. Kimi's usage lines are deduplicated by ccusage's key (session,
// message id, timestamp and counts).
func TestKimiDroidTokensBesideCcusage(t *testing.T) {
	t.Parallel()
	type counts struct{ input, cacheRead, cacheWrite, output int64 }
	kimi := func(path string) counts {
		var c counts
		seen := map[string]bool{}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if !strings.Contains(line, `"StatusUpdate"`) || !strings.Contains(line, `"token_usage"`) {
				continue
			}
			var r struct {
				Timestamp float64 `json:"timestamp"`
				Message   struct {
					Payload struct {
						MessageID string `json:"message_id"`
						Usage     *struct {
							Other    int64 `json:"input_other"`
							Output   int64 `json:"output"`
							Read     int64 `json:"input_cache_read"`
							Creation int64 `json:"input_cache_creation"`
						} `json:"token_usage"`
					} `json:"payload"`
				} `json:"message"`
			}
			if json.Unmarshal([]byte(line), &r) != nil || r.Message.Payload.Usage == nil {
				continue
			}
			u := r.Message.Payload.Usage
			key := fmt.Sprint(path, r.Message.Payload.MessageID, r.Timestamp, *u)
			if seen[key] || u.Other+u.Output+u.Read+u.Creation == 0 {
				continue
			}
			seen[key] = true
			c.input, c.output, c.cacheRead, c.cacheWrite = c.input+u.Other, c.output+u.Output, c.cacheRead+u.Read, c.cacheWrite+u.Creation
		}
		return c
	}
	droid := func(path string) counts {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Usage struct {
				Input         int64 `json:"inputTokens"`
				Output        int64 `json:"outputTokens"`
				CacheCreation int64 `json:"cacheCreationTokens"`
				CacheRead     int64 `json:"cacheReadTokens"`
			} `json:"tokenUsage"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		u := s.Usage
		return counts{input: u.Input, cacheRead: u.CacheRead, cacheWrite: u.CacheCreation, output: u.Output}
	}
	for _, c := range []struct {
		harness, workItem, file string
		ccusage                 func(string) counts
		source                  string
	}{
		{"kimi", "-tmp-krec-work", "8a6e4f12-7c3b-4d9a-a1e5-0b9c2d7f6e83.jsonl", kimi,
			".kimi/sessions/b66bd22b775e3f302c5bef38981b06dd/8a6e4f12-7c3b-4d9a-a1e5-0b9c2d7f6e83/wire.jsonl"},
		{"droid", "-tmp-drec-work", "f7b7cb35-5c5b-41bd-85c0-6338632b6697", droid,
			".factory/sessions/-tmp-drec-work/f7b7cb35-5c5b-41bd-85c0-6338632b6697.settings.json"},
	} {
		home := homeOf(t, c.harness)
		s := newTestStore(t)
		importHistory(t, s, homeRoots(home))
		sess, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: c.workItem, FileName: c.file})
		if err != nil {
			t.Fatalf("%s: %v", c.harness, err)
		}
		sum := &sess.Summary
		cc := c.ccusage(filepath.Join(home, c.source))
		in, cached, written, out := deref(sum.InputTokens), deref(sum.CachedInputTokens), deref(sum.CacheWriteTokens), deref(sum.OutputTokens)
		t.Logf("%s: sift input %d (cached %d, written %d), output %d; ccusage input %d, cache read %d, cache creation %d, output %d",
			c.harness, in, cached, written, out, cc.input, cc.cacheRead, cc.cacheWrite, cc.output)
		if cc.input+cc.cacheRead+cc.output == 0 {
			t.Errorf("%s: ccusage's rules read no tokens from %s", c.harness, c.source)
		}
		if in-cached-written != cc.input || cached != cc.cacheRead || written != cc.cacheWrite || out != cc.output {
			t.Errorf("%s: sift's tokens do not add up to ccusage's", c.harness)
		}
	}
}
