package store

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/usage"
)

// ccusageFixtures holds ccusage's own test fixtures, each laid out under a
// home as its harness keeps it (testdata/ccusage-fixtures/PROVENANCE.md).
const ccusageFixtures = "../testdata/ccusage-fixtures"

// ccusageTokens is what one of ccusage's tests expects of its fixture:
// the tokens of its one model; thoughts are its extra_total_tokens (a
// Gemini call's thoughts, Droid's thinkingTokens, the rest of Goose's
// total), which its total counts apart from the output.
type ccusageTokens struct {
	model                                string
	input, output, cacheWrite, cacheRead int64
	thoughts, total                      int64
}

// TestTokensEqualCcusageFixtures imports each harness's ccusage test
// fixture (ryoppippi/ccusage's Rust adapters; pi's from ccusage 18.0.11's
// @ccusage/pi) from a temporary home and checks sift's tokens, as `sift
// usage` counts them, against the values ccusage's test asserts. The
// differences are deliberate, and each subtest so named prints both
// numbers:
//   - sift counts ccusage's extra_total_tokens as output (billed as
//     output, as an OpenAI call's reasoning is within its output): a
//     Gemini-shaped call's thoughts, Droid's thinkingTokens, the part of
//     Goose's total its input and output leave out; ccusage adds them to
//     its total apart: the totals are equal;
//   - ccusage's Qwen adapter counts the cached share twice, in the input
//     (promptTokenCount includes it) and in the cache read; sift counts
//     it once, as ccusage's Gemini adapter does;
//   - sift names a model as the harness records it (opencode's
//     provider/model, Droid's own name), where ccusage rewrites it
//     (opencode's model alone, Droid's normalised, pi's "[pi] " prefix) or
//     takes it from elsewhere (Kimi's config.json, which sift does not
//     read: sift's Kimi sessions have no model); the tokens are equal.
func TestTokensEqualCcusageFixtures(t *testing.T) {
	for _, tc := range []struct {
		name, harness string
		// test names ccusage's test the values are from.
		test string
		cc   ccusageTokens
		// model is sift's name of the model.
		model string
		// cachedTwice says ccusage counts the cache read in the input too.
		cachedTwice bool
	}{
		// gemini/loader.rs: the input is the prompt less its cached
		// share plus the tool-use prompt.
		{"thoughts as output", "gemini", "gemini/loader.rs loads_jsonl_token_events_and_separates_cached_input",
			ccusageTokens{model: "gemini-3-flash-preview", input: 3808, output: 23, cacheRead: 11526, thoughts: 919, total: 16276},
			"gemini-3-flash-preview", false},
		{"thoughts as output, cached share once (ccusage counts it twice)", "qwen",
			"qwen/mod.rs loads_qwen_jsonl_usage_entries and builds_qwen_daily_json_report_with_reasoning_in_total",
			ccusageTokens{model: "qwen3-coder-plus", input: 100, output: 50, cacheRead: 5, thoughts: 10, total: 165},
			"qwen3-coder-plus", true},
		// A usage naming its total alone: the total is output.
		{"total alone", "gemini-total", "gemini/parser.rs falls_back_to_total_tokens_when_gemini_parts_are_missing",
			ccusageTokens{model: "gemini-test", output: 654, total: 654}, "gemini-test", false},
		{"total alone", "qwen-total", "qwen/parser.rs falls_back_to_total_token_count_when_qwen_parts_are_missing",
			ccusageTokens{model: "qwen3-coder", output: 321, total: 321}, "qwen3-coder", false},
		// Kimi: input_other is the uncached input, the cache's reads and
		// writes apart.
		{"model from config.json (sift reads none)", "kimi", "kimi/loader.rs loads_status_update_token_usage_from_wire_files",
			ccusageTokens{model: "kimi-k2", input: 100, output: 50, cacheWrite: 20, cacheRead: 10, total: 180}, "", false},
		{"total alone", "kimi-total", "kimi/parser.rs falls_back_to_total_tokens_when_kimi_parts_are_missing",
			ccusageTokens{model: "kimi-k2", output: 432, total: 432}, "", false},
		{"a malformed line and a usage of no tokens count nothing", "kimi-zero",
			"kimi/loader.rs skips_malformed_and_zero_token_wire_lines", ccusageTokens{}, "", false},
		{"model prefixed by ccusage", "pi", "@ccusage/pi 18.0.11 _pi-agent.ts transforms valid pi-agent usage to ccusage format",
			ccusageTokens{model: "[pi] claude-opus-4-5", input: 100, output: 50, cacheWrite: 20, cacheRead: 10, total: 180},
			"claude-opus-4-5", false},
		{"total alone", "pi-total", "pi/parser.rs falls_back_to_total_tokens_when_pi_parts_are_missing",
			ccusageTokens{model: "[pi] gpt-5", output: 333, total: 333}, "gpt-5", false},
		// opencode: the message's tokens, in opencode.db (or a build
		// channel's opencode-<channel>.db).
		{"provider/model", "opencode", "opencode/loader.rs loads_messages_from_sqlite_database",
			ccusageTokens{model: "claude-sonnet-4-20250514", input: 120, output: 60, cacheWrite: 24, cacheRead: 12, total: 216},
			"anthropic/claude-sonnet-4-20250514", false},
		{"channel database", "opencode-channel", "opencode/loader.rs loads_channel_sqlite_database (output: its fixture's)",
			ccusageTokens{model: "claude-sonnet-4-20250514", input: 80, output: 40, total: 120},
			"anthropic/claude-sonnet-4-20250514", false},
		{"total equal to the parts", "opencode-snapshot",
			"opencode/parser.rs snapshots_message_to_entry_variants_and_model_candidates (calculated)",
			ccusageTokens{model: "claude-sonnet-4.5", input: 100, output: 10, cacheWrite: 25, cacheRead: 50, total: 185},
			"github-copilot/claude-sonnet-4.5", false},
		{"total alone", "opencode-total", "opencode/parser.rs falls_back_to_total_tokens_when_opencode_token_parts_are_missing",
			ccusageTokens{model: "gpt-test", output: 123, total: 123}, "openai/gpt-test", false},
		// Kilo Code: the Kilo CLI's kilo.db, opencode's shape.
		{"thinking as output", "kilo", "kilo/loader.rs loads_kilo_messages_from_sqlite",
			ccusageTokens{model: "claude-sonnet-4-20250514", input: 100, output: 50, cacheWrite: 20, cacheRead: 10, thoughts: 5, total: 185},
			"anthropic/claude-sonnet-4-20250514", false},
		{"total alone", "kilo-total", "kilo/parser.rs falls_back_to_total_tokens_when_kilo_parts_are_missing",
			ccusageTokens{model: "gpt-5", output: 234, total: 234}, "openai/gpt-5", false},
		// Droid: the session's settings file; one of no tokens is left
		// out.
		{"thinking as output, model normalised by ccusage", "droid",
			"droid/loader.rs loads_usage_from_droid_settings_files and report_total_includes_thinking_tokens",
			ccusageTokens{model: "claude-sonnet-4", input: 100, output: 50, cacheWrite: 20, cacheRead: 10, thoughts: 5, total: 185},
			"Claude-Sonnet-4-[Anthropic]", false},
		{"total alone", "droid-total", "droid/loader.rs falls_back_to_total_tokens_when_droid_parts_are_missing",
			ccusageTokens{model: "claude-unknown", output: 456, total: 456}, "", false},
		// Goose: the session's accumulated counters.
		{"the rest of the total as output", "goose",
			"goose/loader.rs loads_accumulated_tokens_from_goose_sqlite and report.rs includes_goose_reasoning_remainder_in_report_total",
			ccusageTokens{model: "claude-sonnet-4-20250514", input: 100, output: 50, thoughts: 30, total: 180},
			"claude-sonnet-4-20250514", false},
	} {
		t.Run(tc.harness+" "+tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestStore(t)
			importHistory(t, s, homeRoots(ccusageHome(t, tc.harness)))
			rep, err := usageOf(context.Background(), s, usage.Options{By: usage.ByModel, Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			cc := tc.cc
			if cc == (ccusageTokens{}) {
				// ccusage counts no entry.
				if len(rep.Rows) != 0 {
					t.Fatalf("sift counts %+v; ccusage (%s) counts nothing", rep.Rows, tc.test)
				}
				return
			}
			if len(rep.Rows) != 1 {
				t.Fatalf("%d models, want 1: %+v", len(rep.Rows), rep.Rows)
			}
			r := rep.Rows[0]
			t.Logf("sift %q: input %d, output %d, cache write %d, cache read %d, total %d; ccusage (%s) %q: input %d, output %d + extra %d, cache write %d, cache read %d, total %d",
				r.Key, r.InputTokens, r.OutputTokens, r.CacheCreationTokens, r.CacheReadTokens, r.TotalTokens,
				tc.test, cc.model, cc.input, cc.output, cc.thoughts, cc.cacheWrite, cc.cacheRead, cc.total)
			want := ccusageTokens{model: tc.model, input: cc.input, output: cc.output + cc.thoughts,
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

// ccusageHome copies a harness's ccusage fixture into a temporary home,
// and builds each database it holds as SQL text (NAME.sql) into the
// SQLite file its harness reads (NAME.db) beside it. A script whose first
// line is ".read FILE" (as the sqlite3 shell reads it) runs the script
// FILE of the fixtures' folder first: the harness's tables.
func ccusageHome(t *testing.T, harness string) string {
	t.Helper()
	home := homeOfIn(t, ccusageFixtures, harness)
	err := filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".sql" {
			return err
		}
		db := strings.TrimSuffix(path, ".sql") + ".db"
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if first, rest, _ := strings.Cut(string(text), "\n"); strings.HasPrefix(first, ".read ") {
			runScript(t, db, filepath.Join(ccusageFixtures, strings.TrimPrefix(first, ".read ")))
			if err := os.WriteFile(path, []byte(rest), 0o644); err != nil {
				return err
			}
		}
		runScript(t, db, path)
		return os.Remove(path)
	})
	if err != nil {
		t.Fatal(err)
	}
	return home
}
