package export

import (
	"bytes"
	"math"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// TestReportTotalsSaturate: stored summaries (a teammate's rows) whose
// numbers are negative or add up past what the totals hold give totals
// that neither shrink nor wrap, and a report that still encodes.
func TestReportTotalsSaturate(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	session := func(file string, ms int64, usd float64) review.Session {
		return review.Session{Summary: summary.Summary{WorkItemID: "wi", FileName: file, AgentKind: "claude",
			TotalDurationMs: &ms, EstimatedUSD: &usd}}
	}
	r := BuildReport(ReportInput{Now: now, Since: now.Add(-time.Hour), Sessions: []review.Session{
		session("a.jsonl", math.MaxInt64-1, math.MaxFloat64), session("b.jsonl", 2, math.MaxFloat64),
		session("c.jsonl", -5, -1e300),
	}})
	for _, rows := range [][]Spend{r.ByAgent, r.ByWorkItem} {
		if len(rows) != 1 || rows[0].DurationMs == nil || *rows[0].DurationMs != math.MaxInt64 ||
			rows[0].CostUSD == nil || *rows[0].CostUSD != math.MaxFloat64 {
			t.Errorf("totals %+v, want the largest duration and cost", rows)
		}
	}
	if err := r.WriteJSON(&bytes.Buffer{}); err != nil {
		t.Errorf("the report does not encode: %v", err)
	}
}
