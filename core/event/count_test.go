package event

import (
	"math"
	"testing"
)

func TestAddCount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		total, n, want int64
	}{
		{"sum", 2, 3, 5},
		{"negative operand adds nothing", 10, -4, 10},
		{"negative total restarts at zero", -7, 3, 3},
		{"saturates", math.MaxInt64 - 1, 2, math.MaxInt64},
		{"saturated stays", math.MaxInt64, math.MaxInt64, math.MaxInt64},
	}
	for _, tc := range tests {
		if got := AddCount(tc.total, tc.n); got != tc.want {
			t.Errorf("%s: AddCount(%d, %d) = %d, want %d", tc.name, tc.total, tc.n, got, tc.want)
		}
	}
}

func TestAddUSD(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name             string
		total, usd, want float64
	}{
		{"sum", 0.5, 0.25, 0.75},
		{"negative adds nothing", 1, -3, 1},
		{"NaN adds nothing", 1, math.NaN(), 1},
		{"saturates", math.MaxFloat64, math.MaxFloat64, math.MaxFloat64},
		{"infinite is the largest", 0, math.Inf(1), math.MaxFloat64},
	}
	for _, tc := range tests {
		if got := AddUSD(tc.total, tc.usd); got != tc.want {
			t.Errorf("%s: AddUSD(%v, %v) = %v, want %v", tc.name, tc.total, tc.usd, got, tc.want)
		}
	}
}
