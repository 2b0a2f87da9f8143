package main

import "github.com/agentsift/sift/core/usage"

// The JSON `ccusage daily --json` prints (ccusage 18.0.11), so that
// scripts written for ccusage read `sift usage --format ccusage`
// unchanged: a "daily" array (or "weekly", "monthly", as ccusage's other
// reports) and a totals object. Keys are in ccusage's order.

// ccusagePeriod is one day, week or month of the report; the period's key
// is named as ccusage names it (date, week, month).
type ccusagePeriod struct {
	Date                string           `json:"date,omitempty"`
	Week                string           `json:"week,omitempty"`
	Month               string           `json:"month,omitempty"`
	InputTokens         int64            `json:"inputTokens"`
	OutputTokens        int64            `json:"outputTokens"`
	CacheCreationTokens int64            `json:"cacheCreationTokens"`
	CacheReadTokens     int64            `json:"cacheReadTokens"`
	TotalTokens         int64            `json:"totalTokens"`
	TotalCost           float64          `json:"totalCost"`
	ModelsUsed          []string         `json:"modelsUsed"`
	ModelBreakdowns     []ccusageByModel `json:"modelBreakdowns"`
}

// ccusageByModel is one model's share of a period.
type ccusageByModel struct {
	ModelName           string  `json:"modelName"`
	InputTokens         int64   `json:"inputTokens"`
	OutputTokens        int64   `json:"outputTokens"`
	CacheCreationTokens int64   `json:"cacheCreationTokens"`
	CacheReadTokens     int64   `json:"cacheReadTokens"`
	Cost                float64 `json:"cost"`
}

// ccusageTotals is the report's totals object.
type ccusageTotals struct {
	InputTokens         int64   `json:"inputTokens"`
	OutputTokens        int64   `json:"outputTokens"`
	CacheCreationTokens int64   `json:"cacheCreationTokens"`
	CacheReadTokens     int64   `json:"cacheReadTokens"`
	TotalCost           float64 `json:"totalCost"`
	TotalTokens         int64   `json:"totalTokens"`
}

// ccusageKey returns the name of ccusage's array for a grouping, "" for
// one ccusage has no report of.
func ccusageKey(by usage.By) string {
	switch by {
	case usage.ByDay:
		return "daily"
	case usage.ByWeek:
		return "weekly"
	case usage.ByMonth:
		return "monthly"
	}
	return ""
}

// ccusageReport shapes a usage report grouped by day, week or month as
// ccusage prints it.
func ccusageReport(rep usage.Report) map[string]any {
	periods := make([]ccusagePeriod, 0, len(rep.Rows))
	for _, r := range rep.Rows {
		p := ccusagePeriod{InputTokens: r.InputTokens, OutputTokens: r.OutputTokens,
			CacheCreationTokens: r.CacheCreationTokens, CacheReadTokens: r.CacheReadTokens,
			TotalTokens: r.TotalTokens, TotalCost: ccusageCost(r.CostUSD), ModelsUsed: r.Models, ModelBreakdowns: []ccusageByModel{}}
		switch rep.By {
		case usage.ByWeek:
			p.Week = r.Key
		case usage.ByMonth:
			p.Month = r.Key
		default:
			p.Date = r.Key
		}
		for _, m := range r.ByModel {
			if m.Model == "" {
				continue
			}
			p.ModelBreakdowns = append(p.ModelBreakdowns, ccusageByModel{ModelName: m.Model, InputTokens: m.InputTokens,
				OutputTokens: m.OutputTokens, CacheCreationTokens: m.CacheCreationTokens,
				CacheReadTokens: m.CacheReadTokens, Cost: ccusageCost(m.CostUSD)})
		}
		periods = append(periods, p)
	}
	t := rep.Totals
	return map[string]any{ccusageKey(rep.By): periods, "totals": ccusageTotals{t.InputTokens, t.OutputTokens,
		t.CacheCreationTokens, t.CacheReadTokens, ccusageCost(t.CostUSD), t.TotalTokens}}
}

// ccusageCost is a cost as ccusage prints it: a number, 0 where no call's
// cost is known (ccusage prices an unknown model at 0).
func ccusageCost(c *float64) float64 {
	if c == nil {
		return 0
	}
	return *c
}
