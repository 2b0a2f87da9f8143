package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// sortedKeysOf returns an object's keys, sorted.
func sortedKeysOf(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestUsageFormatCcusage checks that `sift usage --format ccusage` prints
// what `ccusage daily --json` (18.0.11) prints on the same Claude Code
// transcript: the same keys at every level and the same token counts (the
// costs come from different price catalogs and are only checked present).
func TestUsageFormatCcusage(t *testing.T) {
	cc := ccusagePath(t)
	cfg := filepath.Join(t.TempDir(), "claude")
	copyTo(t, "../../testdata/history/claude/spotter-2.1.38-short-session.jsonl",
		filepath.Join(cfg, "projects", "-home-marco-projects-spotter", "s.jsonl"))
	ccOut := runTool(t, append(os.Environ(), "TZ=UTC", "CLAUDE_CONFIG_DIR="+cfg), cc, "daily", "--json", "--offline")
	db := importClaude(t, cfg)
	code, out, errs := runSift(t, "usage", "--agent", "claude", "--format", "ccusage", "--timezone", "UTC", "--db", db)
	if code != 0 {
		t.Fatalf("usage --format ccusage: exit %d, %q", code, errs)
	}
	var want, got map[string]any
	if err := json.Unmarshal(ccOut, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !slices.Equal(sortedKeysOf(got), sortedKeysOf(want)) {
		t.Fatalf("top-level keys %v, ccusage %v", sortedKeysOf(got), sortedKeysOf(want))
	}
	wd, gd := want["daily"].([]any), got["daily"].([]any)
	if len(wd) != 1 || len(gd) != 1 {
		t.Fatalf("days: sift %d, ccusage %d", len(gd), len(wd))
	}
	w, g := wd[0].(map[string]any), gd[0].(map[string]any)
	if !slices.Equal(sortedKeysOf(g), sortedKeysOf(w)) {
		t.Fatalf("day keys %v, ccusage %v", sortedKeysOf(g), sortedKeysOf(w))
	}
	for _, k := range []string{"date", "inputTokens", "outputTokens", "cacheCreationTokens", "cacheReadTokens", "totalTokens"} {
		if g[k] != w[k] {
			t.Errorf("%s: sift %v, ccusage %v", k, g[k], w[k])
		}
	}
	if !slices.Equal(g["modelsUsed"].([]any), w["modelsUsed"].([]any)) {
		t.Errorf("modelsUsed: sift %v, ccusage %v", g["modelsUsed"], w["modelsUsed"])
	}
	wb, gb := w["modelBreakdowns"].([]any)[0].(map[string]any), g["modelBreakdowns"].([]any)[0].(map[string]any)
	if !slices.Equal(sortedKeysOf(gb), sortedKeysOf(wb)) || gb["modelName"] != wb["modelName"] || gb["inputTokens"] != wb["inputTokens"] {
		t.Errorf("model breakdown: sift %v, ccusage %v", gb, wb)
	}
	wt, gt := want["totals"].(map[string]any), got["totals"].(map[string]any)
	if !slices.Equal(sortedKeysOf(gt), sortedKeysOf(wt)) || gt["totalTokens"] != wt["totalTokens"] {
		t.Errorf("totals: sift %v, ccusage %v", gt, wt)
	}
	if c, _ := g["totalCost"].(float64); c <= 0 {
		t.Errorf("totalCost %v: the model is priced", g["totalCost"])
	}
	// The other flags: a week, a month, the history aliases, and a range.
	for _, args := range [][]string{{"--by", "week", "--format", "ccusage"}, {"--by", "month"}, {"--agent", "claude-history", "--until", "2026-02-09"}} {
		if code, _, errs := runSift(t, append([]string{"usage", "--db", db, "--timezone", "UTC"}, args...)...); code != 0 {
			t.Errorf("usage %v: exit %d, %q", args, code, errs)
		}
	}
	for _, args := range [][]string{{"--format", "ccusage", "--by", "model"}, {"--agent", "nosuch"}, {"--source", "logs"}, {"--timezone", "Mars/Base"}, {"--until", "soon"}} {
		if code, _, errs := runSift(t, append([]string{"usage", "--db", db}, args...)...); code != 2 || errs == "" {
			t.Errorf("usage %v: exit %d, %q: want one error line", args, code, errs)
		}
	}
}
