package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ccusageCodexBin is the pinned @ccusage/codex (testdata/ccusage).
const ccusageCodexBin = "../../testdata/ccusage/node_modules/.bin/ccusage-codex"

// codexDay is one day's totals as both tools print them: input with its
// cached share, as @ccusage/codex counts it.
type codexDay struct {
	Input, Cached, Output, Total int64
}

// codexCosts are each day's cost in USD, as either tool prints it.
type codexCosts map[string]float64

// codexHome lays Codex rollouts out as $CODEX_HOME/sessions/YYYY/MM/DD and
// returns the home.
func codexHome(t *testing.T, files map[string][]byte) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "codex")
	for name, data := range files {
		dir := filepath.Join(home, "sessions", "2026", "11", "29")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// ccusageCodexDaily runs `ccusage-codex daily --json --offline` (TZ=UTC)
// on a Codex home; it skips when the pinned package is not installed.
func ccusageCodexDaily(t *testing.T, home string) (map[string]codexDay, codexCosts) {
	t.Helper()
	days, costs, _ := ccusageCodexReport(t, home)
	return days, costs
}

// ccusageCodexReport is ccusageCodexDaily with the totals per model over
// all days.
func ccusageCodexReport(t *testing.T, home string) (map[string]codexDay, codexCosts, map[string]codexDay) {
	t.Helper()
	bin, err := filepath.Abs(ccusageCodexBin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skip("@ccusage/codex not installed; install with: npm ci --prefix testdata/ccusage")
	}
	out := runTool(t, append(os.Environ(), "TZ=UTC", "CODEX_HOME="+home), bin, "daily", "--json", "--offline")
	var rep struct {
		Daily []struct {
			Date              string  `json:"date"`
			InputTokens       int64   `json:"inputTokens"`
			CachedInputTokens int64   `json:"cachedInputTokens"`
			OutputTokens      int64   `json:"outputTokens"`
			TotalTokens       int64   `json:"totalTokens"`
			CostUSD           float64 `json:"costUSD"`
			Models            map[string]struct {
				InputTokens       int64 `json:"inputTokens"`
				CachedInputTokens int64 `json:"cachedInputTokens"`
				OutputTokens      int64 `json:"outputTokens"`
				TotalTokens       int64 `json:"totalTokens"`
			} `json:"models"`
		} `json:"daily"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("ccusage-codex output: %v\n%.500s", err, out)
	}
	days := map[string]codexDay{}
	costs := codexCosts{}
	models := map[string]codexDay{}
	for _, d := range rep.Daily {
		for name, m := range d.Models {
			sum := models[name]
			models[name] = codexDay{sum.Input + m.InputTokens, sum.Cached + m.CachedInputTokens,
				sum.Output + m.OutputTokens, sum.Total + m.TotalTokens}
		}
		// @ccusage/codex prints dates as "Nov 29, 2026".
		at, err := time.Parse("Jan 2, 2006", d.Date)
		if err != nil {
			t.Fatalf("ccusage-codex date %q: %v", d.Date, err)
		}
		days[at.Format("2006-01-02")] = codexDay{d.InputTokens, d.CachedInputTokens, d.OutputTokens, d.TotalTokens}
		costs[at.Format("2006-01-02")] = d.CostUSD
	}
	return days, costs, models
}

// siftCodexDaily imports a Codex home's history and returns `sift usage
// --agent codex --by day --json --timezone UTC` per day.
func siftCodexDaily(t *testing.T, home string) (map[string]codexDay, codexCosts) {
	t.Helper()
	return siftCodexUsage(t, home, "day")
}

// siftCodexUsage imports a Codex home's history and returns `sift usage
// --agent codex --by BY --json --timezone UTC` per row.
func siftCodexUsage(t *testing.T, home, by string) (map[string]codexDay, codexCosts) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(dir, "none"))
	t.Setenv("GEMINI_DIR", filepath.Join(dir, "none"))
	db := filepath.Join(dir, "sift.db")
	if code, out, errs := runSift(t, "import", "--history", "--db", db); code != 0 {
		t.Fatalf("import: exit %d, %q, %q", code, out, errs)
	}
	code, out, errs := runSift(t, "usage", "--agent", "codex", "--by", by, "--json", "--timezone", "UTC", "--db", db)
	if code != 0 {
		t.Fatalf("usage: exit %d, %q", code, errs)
	}
	var rep struct {
		Rows []struct {
			Key                 string  `json:"key"`
			InputTokens         int64   `json:"inputTokens"`
			OutputTokens        int64   `json:"outputTokens"`
			CacheCreationTokens int64   `json:"cacheCreationTokens"`
			CacheReadTokens     int64   `json:"cacheReadTokens"`
			TotalTokens         int64   `json:"totalTokens"`
			CostUSD             float64 `json:"costUsd"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	days := map[string]codexDay{}
	costs := codexCosts{}
	for _, r := range rep.Rows {
		days[r.Key] = codexDay{r.InputTokens + r.CacheReadTokens + r.CacheCreationTokens, r.CacheReadTokens, r.OutputTokens, r.TotalTokens}
		costs[r.Key] = r.CostUSD
	}
	return days, costs
}

// codexRollout is the real rollout Codex 0.171.0 wrote (testdata/history).
func codexRollout(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../../testdata/history/codex/e2e-codex-0.171.0-scripted.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestCodexUsageMatchesCcusage compares `sift usage --agent codex --by day
// --json` with @ccusage/codex 18.0.11's daily totals on the Codex histories
// in testdata.
func TestCodexUsageMatchesCcusage(t *testing.T) {
	home := codexHome(t, map[string][]byte{
		"rollout-2026-11-29T19-31-24-01a228ca-6c23-7b71-9824-63b909c09da0.jsonl": codexRollout(t)})
	want, _ := ccusageCodexDaily(t, home)
	got, _ := siftCodexDaily(t, home)
	if len(want) == 0 {
		t.Fatal("ccusage-codex reports no day")
	}
	for day, w := range want {
		if got[day] != w {
			t.Errorf("%s: sift %+v, @ccusage/codex %+v", day, got[day], w)
		}
	}
	for day, g := range got {
		if _, ok := want[day]; !ok {
			t.Errorf("%s: sift %+v, @ccusage/codex has no such day", day, g)
		}
	}
}

// TestCodexUsageForkDiffersFromCcusage is a deliberate difference: a
// forked rollout (its first session_meta names forked_from_id) copies its
// parent's session_meta and history, re-stamped with the fork's time, then
// adds its own call. sift counts the copied calls once, on the parent's
// day; @ccusage/codex 18.0.11 counts them again on the fork's day
// (ccusage/ccusage#897, #1370).
func TestCodexUsageForkDiffersFromCcusage(t *testing.T) {
	parent := codexRollout(t)
	lines := strings.Split(strings.TrimSpace(string(parent)), "\n")
	restamp := func(l string) string {
		i := strings.Index(l, `"timestamp":"`) + len(`"timestamp":"`)
		return l[:i] + "2026-11-30T08:00:00.000Z" + l[i+len("2026-11-29T19:31:24.376Z"):]
	}
	forkID := "01a228ff-0000-7000-8000-000000000001"
	fork := []string{`{"timestamp":"2026-11-30T08:00:00.000Z","type":"session_meta","payload":{"id":"` + forkID +
		`","forked_from_id":"01a228ca-6c23-7b71-9824-63b909c09da0","cwd":"/w","originator":"codex_exec","cli_version":"0.171.0","source":"exec"}}`}
	for _, l := range lines {
		fork = append(fork, restamp(l))
	}
	// The fork's own call: 1500 more input (1200 cached) and 50 output,
	// the shape of the recorded token_count lines.
	fork = append(fork, `{"timestamp":"2026-11-30T08:05:00.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":6000,"cached_input_tokens":3400,"output_tokens":170,"reasoning_output_tokens":0,"total_tokens":6170},"last_token_usage":{"input_tokens":1500,"cached_input_tokens":1200,"output_tokens":50,"reasoning_output_tokens":0,"total_tokens":1550}}}}`)
	home := codexHome(t, map[string][]byte{
		"rollout-2026-11-29T19-31-24-01a228ca-6c23-7b71-9824-63b909c09da0.jsonl": parent,
		"rollout-2026-11-30T08-00-00-" + forkID + ".jsonl":                       []byte(strings.Join(fork, "\n") + "\n"),
	})
	cc, _ := ccusageCodexDaily(t, home)
	got, _ := siftCodexDaily(t, home)
	own := codexDay{1500, 1200, 50, 1550}
	parentDay := codexDay{4500, 2200, 120, 4620}
	if got["2026-11-29"] != parentDay || got["2026-11-30"] != own {
		t.Errorf("sift: %+v, want the parent's calls on 2026-11-29 and only the fork's own on 2026-11-30", got)
	}
	copied := codexDay{parentDay.Input + own.Input, parentDay.Cached + own.Cached, parentDay.Output + own.Output, parentDay.Total + own.Total}
	if cc["2026-11-29"] != parentDay || cc["2026-11-30"] != copied {
		t.Errorf("@ccusage/codex: %+v, want the copy counted again on 2026-11-30 (%+v)", cc, copied)
	}
	t.Logf("2026-11-30 input tokens: sift %d, @ccusage/codex 18.0.11 %d", got["2026-11-30"].Input, cc["2026-11-30"].Input)
}

// TestCodexCostDiffersFromCcusage is a deliberate difference in price,
// not in tokens: the recorded rollout's model is gpt-5.5, which sift
// charges at its catalog's rates (@pydantic/genai-prices: $5 input, $0.50
// cached input, $30 output per million tokens, OpenAI's list price), and
// @ccusage/codex 18.0.11 at gpt-5's ($1.25, $0.125, $10). The tokens are
// the same (TestCodexUsageMatchesCcusage).
func TestCodexCostDiffersFromCcusage(t *testing.T) {
	home := codexHome(t, map[string][]byte{
		"rollout-2026-11-29T19-31-24-01a228ca-6c23-7b71-9824-63b909c09da0.jsonl": codexRollout(t)})
	ccDays, ccCost := ccusageCodexDaily(t, home)
	days, cost := siftCodexDaily(t, home)
	const day = "2026-11-29"
	d := days[day]
	if d != ccDays[day] || d.Input == 0 {
		t.Fatalf("tokens differ (%+v vs %+v): this test is about price only", d, ccDays[day])
	}
	// Per million tokens: uncached input, cached input, output.
	at := func(in, cached, out float64) float64 {
		return (float64(d.Input-d.Cached)*in + float64(d.Cached)*cached + float64(d.Output)*out) / 1e6
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if want := at(5, 0.5, 30); !near(cost[day], want) {
		t.Errorf("sift charges $%.6f for %s, want $%.6f (gpt-5.5 at its catalog price)", cost[day], day, want)
	}
	if want := at(1.25, 0.125, 10); !near(ccCost[day], want) {
		t.Errorf("@ccusage/codex charges $%.6f, want $%.6f (gpt-5.5 at gpt-5's price)", ccCost[day], want)
	}
	t.Logf("%s, gpt-5.5: sift $%.5f, @ccusage/codex 18.0.11 $%.5f", day, cost[day], ccCost[day])
}

// TestCodexSessionFileAndModelMatchCcusage lays @ccusage/codex's own test
// session out as its test does, $CODEX_HOME/sessions/session.jsonl (not a
// rollout-* name), with its second request's info.model changed to
// gpt-5-codex while the turn_context still says gpt-5
// (core/agents/testdata/accounting). Both tools read the file and charge
// each request to the model its token_count names: `sift usage --by model`
// equals @ccusage/codex 18.0.11's per-model totals.
func TestCodexSessionFileAndModelMatchCcusage(t *testing.T) {
	data, err := os.ReadFile("../../core/agents/testdata/accounting/ccusage-codex-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	lines[2] = strings.Replace(lines[2], `"model": "gpt-5"`, `"model": "gpt-5-codex"`, 1)
	home := filepath.Join(t.TempDir(), "codex")
	if err := os.MkdirAll(filepath.Join(home, "sessions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "sessions", "session.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, want := ccusageCodexReport(t, home)
	got, _ := siftCodexUsage(t, home, "model")
	if len(want) != 2 {
		t.Fatalf("@ccusage/codex: %+v, want gpt-5 and gpt-5-codex", want)
	}
	for model, w := range want {
		if got[model] != w {
			t.Errorf("%s: sift %+v, @ccusage/codex %+v", model, got[model], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("sift models %+v, @ccusage/codex %+v", got, want)
	}
}
