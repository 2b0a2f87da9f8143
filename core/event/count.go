package event

import "math"

// AddCount returns total + n for counters that cannot be negative: tokens,
// milliseconds, turns, calls. A negative operand counts as 0, so that one
// stream's number never subtracts from another's, and the sum stops at
// math.MaxInt64 instead of wrapping. Every such sum goes through it: the
// parsers', the summaries', the report's and the usage totals'.
func AddCount(total, n int64) int64 {
	total, n = max(total, 0), max(n, 0)
	if n > math.MaxInt64-total {
		return math.MaxInt64
	}
	return total + n
}

// AddUSD returns total + usd for costs: a negative or NaN operand counts as
// 0, and the sum stops at math.MaxFloat64 instead of becoming +Inf, which
// JSON cannot hold.
func AddUSD(total, usd float64) float64 {
	return min(USD(total)+USD(usd), math.MaxFloat64)
}

// USD is a cost as sift counts it: a negative or NaN one is 0, an infinite
// one math.MaxFloat64.
func USD(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	return min(v, math.MaxFloat64)
}

// ClampCounts replaces the update's negative counters (tokens, cost,
// durations, turns, truncated bytes) with 0: a stream cannot have spent
// less than nothing. It replaces a pointer rather than writing through
// it, since the value may belong to a parser.
func (u *Update) ClampCounts() {
	for _, p := range []**int64{&u.PromptTokens, &u.CompletionTokens, &u.CachedTokens, &u.DurationMs, &u.TruncatedBytes} {
		if *p != nil && **p < 0 {
			*p = Int64(0)
		}
	}
	if u.NumTurns != nil && *u.NumTurns < 0 {
		u.NumTurns = Int(0)
	}
	if u.CostUSD != nil && USD(*u.CostUSD) != *u.CostUSD {
		u.CostUSD = Float64(USD(*u.CostUSD))
	}
	for k, v := range u.UsageExtra {
		if v < 0 {
			u.UsageExtra[k] = 0
		}
	}
}
