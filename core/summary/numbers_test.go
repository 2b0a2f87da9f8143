package summary

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// TestTokenSumsSaturate: two calls whose token counts add up past int64
// give a summary at math.MaxInt64, not a sum wrapped negative.
func TestTokenSumsSaturate(t *testing.T) {
	t.Parallel()
	const huge = int64(6e18) // two of them overflow int64
	cost := 1e308
	evs := said(1, "m1", huge, huge, &cost)
	evs = append(evs, said(2, "m2", huge, huge, &cost)...)
	evs = append(evs, &event.Event{Line: 3, Update: result(huge, false)}, &event.Event{Line: 4, Update: result(huge, false)})
	s, _ := Events(evs, event.Stats{Agent: "claude", EndsWithResult: true}, Options{})
	i64(t, "inputTokens", s.InputTokens, math.MaxInt64)
	i64(t, "outputTokens", s.OutputTokens, math.MaxInt64)
	i64(t, "totalDurationMs", s.TotalDurationMs, math.MaxInt64)
	if s.EstimatedUSD == nil || math.IsInf(*s.EstimatedUSD, 0) || *s.EstimatedUSD < cost {
		t.Errorf("estimatedUsd = %v, want the largest finite cost", s.EstimatedUSD)
	}
	if _, err := json.Marshal(s); err != nil {
		t.Errorf("the summary does not encode: %v", err)
	}
}

// TestNegativeNumbersCountAsZero: a negative count, duration or cost from
// a stream subtracts nothing from the summary's sums.
func TestNegativeNumbersCountAsZero(t *testing.T) {
	t.Parallel()
	neg := -5.0
	evs := said(1, "m1", 1000, 10, nil)
	evs = append(evs, said(2, "m2", -900, -9, &neg)...)
	evs = append(evs, &event.Event{Line: 3, Update: result(2000, false)}, &event.Event{Line: 4, Update: result(-1500, false)})
	s, _ := Events(evs, event.Stats{Agent: "claude", EndsWithResult: true}, Options{})
	i64(t, "inputTokens", s.InputTokens, 1000)
	i64(t, "outputTokens", s.OutputTokens, 10)
	i64(t, "totalDurationMs", s.TotalDurationMs, 2000)
	if s.EstimatedUSD != nil && *s.EstimatedUSD < 0 {
		t.Errorf("estimatedUsd = %v", *s.EstimatedUSD)
	}
}
