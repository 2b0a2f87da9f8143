package store

import (
	"context"
	"testing"
	"time"

	"github.com/agentsift/sift/core/usage"
)

// ccusageFixtures holds ccusage's own test fixtures, each laid out under a
// home as its harness keeps it (testdata/ccusage-fixtures/PROVENANCE.md).
const ccusageFixtures = "../testdata/ccusage-fixtures"

// ccusageTokens is what one of ccusage's tests expects of its fixture:
// the tokens of its one model; thoughts are its extra_total_tokens, which
// its total counts apart from the output.
type ccusageTokens struct {
	model                                string
	input, output, cacheWrite, cacheRead int64
	thoughts, total                      int64
}

// TestTokensEqualCcusageFixtures imports each harness's ccusage test
// fixture (ryoppippi/ccusage's Rust adapters) from a temporary home and
// checks sift's tokens against the values ccusage's test asserts. Two
// differences are deliberate, and each subtest so named prints both
// numbers:
//   - sift counts a Gemini-shaped call's thoughts as output (billed as
//     output, as an OpenAI call's reasoning is within its output), where
//     ccusage adds them to its total apart: the totals are equal;
//   - ccusage's Qwen adapter counts the cached share twice, in the input
//     (promptTokenCount includes it) and in the cache read; sift counts
//     it once, as ccusage's Gemini adapter does.
func TestTokensEqualCcusageFixtures(t *testing.T) {
	for _, tc := range []struct {
		name, harness string
		// test names ccusage's test the values are from.
		test string
		cc   ccusageTokens
		// cachedTwice says ccusage counts the cache read in the input too.
		cachedTwice bool
	}{
		// gemini/loader.rs: the input is the prompt less its cached
		// share plus the tool-use prompt.
		{"thoughts as output", "gemini", "gemini/loader.rs loads_jsonl_token_events_and_separates_cached_input",
			ccusageTokens{model: "gemini-3-flash-preview", input: 3808, output: 23, cacheRead: 11526, thoughts: 919, total: 16276}, false},
		{"thoughts as output, cached share once (ccusage counts it twice)", "qwen",
			"qwen/mod.rs loads_qwen_jsonl_usage_entries and builds_qwen_daily_json_report_with_reasoning_in_total",
			ccusageTokens{model: "qwen3-coder-plus", input: 100, output: 50, cacheRead: 5, thoughts: 10, total: 165}, true},
		// A usage naming its total alone: the total is output.
		{"total alone", "gemini-total", "gemini/parser.rs falls_back_to_total_tokens_when_gemini_parts_are_missing",
			ccusageTokens{model: "gemini-test", output: 654, total: 654}, false},
		{"total alone", "qwen-total", "qwen/parser.rs falls_back_to_total_token_count_when_qwen_parts_are_missing",
			ccusageTokens{model: "qwen3-coder", output: 321, total: 321}, false},
	} {
		t.Run(tc.harness+" "+tc.name, func(t *testing.T) {
			s := newTestStore(t)
			importHistory(t, s, homeRoots(homeOfIn(t, ccusageFixtures, tc.harness)))
			rep, err := usageOf(context.Background(), s, usage.Options{By: usage.ByModel, Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Rows) != 1 {
				t.Fatalf("%d models, want 1: %+v", len(rep.Rows), rep.Rows)
			}
			r, cc := rep.Rows[0], tc.cc
			t.Logf("%s: sift input %d, output %d, cache write %d, cache read %d, total %d; ccusage (%s) input %d, output %d + thoughts %d, cache write %d, cache read %d, total %d",
				r.Key, r.InputTokens, r.OutputTokens, r.CacheCreationTokens, r.CacheReadTokens, r.TotalTokens,
				tc.test, cc.input, cc.output, cc.thoughts, cc.cacheWrite, cc.cacheRead, cc.total)
			want := ccusageTokens{model: cc.model, input: cc.input, output: cc.output + cc.thoughts,
				cacheWrite: cc.cacheWrite, cacheRead: cc.cacheRead, total: cc.total}
			if tc.cachedTwice {
				want.input -= cc.cacheRead
				want.total -= cc.cacheRead
			}
			got := ccusageTokens{model: r.Key, input: r.InputTokens, output: r.OutputTokens,
				cacheWrite: r.CacheCreationTokens, cacheRead: r.CacheReadTokens, total: r.TotalTokens}
			if got != want {
				t.Errorf("sift %+v, want %+v (ccusage's, with the differences named)", got, want)
			}
		})
	}
}
