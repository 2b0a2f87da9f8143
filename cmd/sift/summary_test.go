package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/summary"
)

const claudeRun1 = "../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl"

func runSift(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestSummaryCommandJSON(t *testing.T) {
	t.Parallel()
	gemini := "../../testdata/streams/gemini/evolve-run2-resumed-four-tools.jsonl"
	code, out, errs := runSift(t, "summary", "--json", claudeRun1, gemini)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one JSON line per file, got %d", len(lines))
	}
	var s summary.Summary
	if err := json.Unmarshal([]byte(lines[0]), &s); err != nil {
		t.Fatal(err)
	}
	if s.FileName != "evolve-2.1.7-run1-write-file.jsonl" || s.AgentKind != "claude" ||
		s.CostSource != summary.CostHarness || s.TotalDurationMs == nil || *s.TotalDurationMs != 6303 {
		t.Errorf("claude summary: %+v", s)
	}
	// The JSON keeps nulls for what the harness did not say.
	if !strings.Contains(lines[0], `"executingMs":null`) || !strings.Contains(lines[1], `"costSource":"estimate"`) {
		t.Errorf("JSON form: %s", lines[0])
	}
}

func TestSummaryCommandReadable(t *testing.T) {
	t.Parallel()
	code, out, errs := runSift(t, "summary", claudeRun1,
		"--start", "2026-11-29T18:00:00Z", "--end", "2026-11-29T18:00:10Z", "--stall", "1s")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		claudeRun1, "agent         claude · session 4bd9804e-6adb-41d7-8691-9b07158b0d3a",
		"model         claude-opus-4-5-20251101 (from the stream)",
		"turn     line        in      out       cost           calls  flags / model",
		"t1          2     26805        1    $0.0875 estimate      1\n",
		"t2          4     26924        1    $0.0142 estimate      0  stall",
		"turns         2 · harness says 2 · 1 calling tools: $0.0875",
		"outcome       completed: the result line reports success (line 5)", "flagged t2    model silent 1 s after the tool result (lines 3–4)",
		"started       2026-11-29T18:00:00Z", "duration      6.303s",
		"cost          $0.1043 (harness", "tool calls    1 (0 failed, 0 approval)",
		"stall         1.26s llm at line 5 (t2)", // 6.303 s of harness time over 5 lines
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSummaryCommandPricingOverride(t *testing.T) {
	t.Parallel()
	prices := filepath.Join(t.TempDir(), "prices.json")
	if err := os.WriteFile(prices, []byte(`{"date":"2030-01-01","models":{"gemini-3-flash-preview":{"input":1000,"output":0,"cacheRead":0}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runSift(t, "summary", "--json", "--pricing", prices, "../../testdata/streams/gemini/evolve-run1-write.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var s summary.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	// 13428 input tokens, none cached, at $1000 a million.
	if s.EstimatedUSD == nil || *s.EstimatedUSD != 13.428 || !strings.Contains(s.CostBasis, "2030-01-01") {
		t.Errorf("cost %v basis %q", s.EstimatedUSD, s.CostBasis)
	}
}

func TestSummaryCommandErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"summary"}, "want at least one FILE"},
		{"missing file", []string{"summary", "/nonexistent/x.jsonl"}, "no such file"},
		{"unknown agent", []string{"summary", "--agent", "nope", claudeRun1}, "unknown agent"},
		{"start without end", []string{"summary", "--start", "2026-11-29T18:00:00Z", claudeRun1}, "--start and --end go together"},
		{"bad time", []string{"summary", "--start", "yesterday", "--end", "2026-11-29T18:00:00Z", claudeRun1}, "--start"},
		{"end before start", []string{"summary", "--start", "2026-11-29T18:00:00Z", "--end", "2026-11-29T17:00:00Z", claudeRun1}, "is not after"},
		{"bad stall", []string{"summary", "--stall", "0s", claudeRun1}, "--stall must be positive"},
		{"missing pricing", []string{"summary", "--pricing", "/nonexistent.json", claudeRun1}, "read price table"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runSift(t, tc.args...)
			if code == 0 || out != "" {
				t.Errorf("exit %d, stdout %q", code, out)
			}
			if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "sift summary: ") || !strings.Contains(errs, tc.want) {
				t.Errorf("stderr = %q, want one line containing %q", errs, tc.want)
			}
		})
	}
}
