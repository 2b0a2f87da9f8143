package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsift/sift/core/usage"
)

// TestTokensEqualCcusageAmp imports the Amp threads of ccusage's amp
// adapter tests (testdata/ccusage-fixtures/amp*/PROVENANCE.md) from a
// temporary home and checks sift's tokens against the values those tests
// assert: a thread's usage ledger, when it keeps one, is its tokens (each
// event's input and output, with the cache of the assistant message its
// toMessageId names), else each response's usage; a total naming more than
// the parts is output; a request of no tokens is none.
func TestTokensEqualCcusageAmp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, home, test string
		cc               ccusageTokens
	}{
		{"messages' usage", filepath.Join(ccusageFixtures, "amp"), "amp/parser.rs reads_usage_from_messages_when_ledger_is_missing",
			ccusageTokens{model: "claude-haiku-4-5-20251001", input: 10 + 5, output: 178 + 42, cacheWrite: 986, cacheRead: 11372 + 12000}},
		{"the ledger over the messages", filepath.Join(ccusageFixtures, "amp-ledger"),
			"amp/parser.rs ledger_events_take_precedence_over_messages_usage",
			ccusageTokens{model: "gpt-5", input: 1, output: 2}},
		{"ledger total alone", filepath.Join(ccusageFixtures, "amp-total"),
			"amp/parser.rs falls_back_to_total_tokens_when_amp_parts_are_missing", ccusageTokens{model: "gpt-5", output: 345}},
		{"message total alone", filepath.Join(ccusageFixtures, "amp-message-total"),
			"amp/parser.rs falls_back_to_total_tokens_in_messages_path",
			ccusageTokens{model: "claude-haiku-4-5-20251001", output: 345}},
		{"ledger with the message's cache", filepath.Join(historiesDir, "amp"),
			"apps/amp data-loader.ts parses Amp thread files and extracts usage events",
			ccusageTokens{model: "claude-haiku-4-5-20251001", input: 100, output: 50, cacheWrite: 500, cacheRead: 200}},
		{"no tokens", filepath.Join(ccusageFixtures, "amp-zero"), "amp/parser.rs skips_messages_with_no_usage_tokens",
			ccusageTokens{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := homeOfIn(t, filepath.Dir(tc.home), filepath.Base(tc.home))
			if tc.home == filepath.Join(historiesDir, "amp") {
				// Only ccusage's thread of that home.
				home = t.TempDir()
				copyFile(t, filepath.Join(tc.home, ampThreads, "T-test-thread-123.json"),
					filepath.Join(home, ampThreads, "T-test-thread-123.json"))
			}
			s := newTestStore(t)
			if res := importHistory(t, s, homeRoots(home)); res.Sessions != 1 {
				t.Fatalf("%d sessions imported, want the thread (%+v)", res.Sessions, res)
			}
			rep, err := usageOf(context.Background(), s, usage.Options{By: usage.ByModel, Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			cc := tc.cc
			if cc.model == "" {
				if len(rep.Rows) != 0 {
					t.Fatalf("rows %+v, want none (ccusage %s)", rep.Rows, tc.test)
				}
				return
			}
			if len(rep.Rows) != 1 {
				t.Fatalf("%d models, want 1: %+v", len(rep.Rows), rep.Rows)
			}
			r := rep.Rows[0]
			cc.total = cc.input + cc.output + cc.cacheWrite + cc.cacheRead
			got := ccusageTokens{model: r.Key, input: r.InputTokens, output: r.OutputTokens,
				cacheWrite: r.CacheCreationTokens, cacheRead: r.CacheReadTokens, total: r.TotalTokens}
			if got != cc {
				t.Errorf("sift %+v, want ccusage's %+v (%s)", got, cc, tc.test)
			}
		})
	}
}
