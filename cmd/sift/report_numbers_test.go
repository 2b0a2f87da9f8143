package main

import (
	"encoding/json"
	"regexp"
	"testing"
)

// TestReportTotalsIgnoreNegativeNumbers: a stream whose result line says
// it cost and lasted less than nothing hides none of another stream's
// spend in the report's totals.
func TestReportTotalsIgnoreNegativeNumbers(t *testing.T) {
	const id = "eff3be49-5d5c-492c-baea-ad4d629adf93"
	honest := streamWithID(t, "claude/e2e-claude-code-2.1.332-scripted.jsonl", id, id)
	hostile := streamWithID(t, "claude/e2e-claude-code-2.1.332-scripted.jsonl", id, "0ff3be49-5d5c-492c-baea-ad4d629adf93")
	hostile = regexp.MustCompile(`"total_cost_usd":[0-9.e-]+`).ReplaceAllString(hostile, `"total_cost_usd":-500`)
	hostile = regexp.MustCompile(`"duration_ms":[0-9]+`).ReplaceAllString(hostile, `"duration_ms":-36000000`)
	db := importedDB(t, map[string]string{"honest/work-1-aaaaaa.jsonl": honest, "hostile/work-1-bbbbbb.jsonl": hostile})
	out, errOut, code := siftCmd(t, "report", "--db", db, "--since", "36500d", "--format", "json")
	if code != 0 {
		t.Fatalf("report: %d %q", code, errOut)
	}
	var r struct {
		Totals     struct{ Runs int }
		ByAgent    []reportSpend
		ByWorkItem []reportSpend
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	rows := map[string]reportSpend{}
	for _, s := range append(r.ByAgent, r.ByWorkItem...) {
		rows[s.Key] = s
	}
	own, bad, all := rows["honest"], rows["hostile"], rows["claude"]
	if r.Totals.Runs != 2 || own.Runs != 1 || bad.Runs != 1 || all.Runs != 2 || own.CostUSD <= 0 || own.DurationMs <= 0 {
		t.Fatalf("the report does not hold both runs with the honest one's spend:\n%s", out)
	}
	if bad.CostUSD < 0 || bad.DurationMs < 0 || all.CostUSD < own.CostUSD || all.DurationMs < own.DurationMs {
		t.Errorf("the hostile run hides spend: honest %+v, hostile %+v, claude %+v", own, bad, all)
	}
}

// reportSpend is a row of the report's cost and time tables.
type reportSpend struct {
	Key         string
	Runs        int
	DurationMs  int64 // null (unknown) reads as 0
	CostUSD     float64
	UnknownCost int
}
