package config

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestIntegerKeysRejectNonIntegers pins what yaml.v3 alone would accept
// silently: `1.5` truncated to 1 and `-.inf` turned into the smallest
// int64, both into an integer key. Each must be one error line naming the
// key and the file.
func TestIntegerKeysRejectNonIntegers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var n atomic.Int64
	for _, key := range []string{"MaxFileSizeMb", "RetainedDays", "MaxTotalSizeMb", "TokenSpikeMin",
		"Review.FullEventsHours", "Review.FlaggedDays", "Review.SummariesDays"} {
		for _, v := range []string{"1.5", ".nan", ".inf", "-.inf", "1e3", "99999999999999999999"} {
			t.Run(key+"="+v, func(t *testing.T) {
				body := key + ": " + v + "\n"
				if k, ok := strings.CutPrefix(key, "Review."); ok {
					body = "Review:\n  " + k + ": " + v + "\n"
				}
				p := filepath.Join(dir, fmt.Sprintf("c%d.yaml", n.Add(1)))
				writeFile(t, p, body)
				_, err := Load(p)
				if err == nil {
					t.Fatalf("%q accepted", body)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, "config "+p+": ") || !strings.Contains(msg, key) ||
					!strings.Contains(msg, v) || strings.Contains(msg, "\n") {
					t.Errorf("err = %q, want one line naming %s, %s and the file", msg, key, v)
				}
			})
		}
	}
}

// TestFloatKeysRejectNaNAndInf checks the two float keys: yaml.v3 reads
// `.nan` and `.inf` as numbers, which no comparison in Validate catches.
func TestFloatKeysRejectNaNAndInf(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "config.yaml")
	for _, key := range []string{"StallThresholdSeconds", "TokenSpikeFactor"} {
		for _, v := range []string{".nan", ".NaN", ".inf", "+.inf", "-.inf"} {
			t.Run(key+"="+v, func(t *testing.T) {
				c, err := Parse([]byte(key + ": " + v + "\n"))
				if err == nil {
					c.file = file
					err = c.Validate()
				}
				if err == nil || !strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("%s: %s gave %v, want an error naming the key", key, v, err)
				}
			})
		}
	}
}

// TestValidateRanges runs every bounded key at its edges.
func TestValidateRanges(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "config.yaml")
	for _, tc := range []struct {
		name, body string
		bad        string // the key the error names; "" when valid
	}{
		{"retained days 0", "RetainedDays: 0", ""},
		{"retained days 1", "RetainedDays: 1", ""},
		{"retained days max", "RetainedDays: 36500", ""},
		{"retained days max+1", "RetainedDays: 36501", "RetainedDays"},
		{"retained days 106752", "RetainedDays: 106752", "RetainedDays"},
		{"retained days huge", "RetainedDays: 9223372036854775807", "RetainedDays"},
		{"retained days negative", "RetainedDays: -1", "RetainedDays"},
		{"total size 0", "MaxTotalSizeMb: 0", ""},
		{"total size 1", "MaxTotalSizeMb: 1", ""},
		{"total size max", "MaxTotalSizeMb: 1073741824", ""},
		{"total size max+1", "MaxTotalSizeMb: 1073741825", "MaxTotalSizeMb"},
		{"total size 1<<44", "MaxTotalSizeMb: 17592186044416", "MaxTotalSizeMb"},
		{"total size negative", "MaxTotalSizeMb: -1", "MaxTotalSizeMb"},
		{"file size 0", "MaxFileSizeMb: 0", "MaxFileSizeMb"},
		{"file size 1", "MaxFileSizeMb: 1", ""},
		{"file size max", "MaxFileSizeMb: 1048576", ""},
		{"file size max+1", "MaxFileSizeMb: 1048577", "MaxFileSizeMb"},
		{"file size 1<<44", "MaxFileSizeMb: 17592186044416", "MaxFileSizeMb"},
		{"events hours max", "Review: {FullEventsHours: 876000}", ""},
		{"events hours max+1", "Review: {FullEventsHours: 876001}", "Review.FullEventsHours"},
		{"flagged days max", "Review: {FlaggedDays: 36500}", ""},
		{"flagged days 106752", "Review: {FlaggedDays: 106752}", "Review.FlaggedDays"},
		{"summaries days max+1", "Review: {SummariesDays: 36501}", "Review.SummariesDays"},
		{"summaries days negative", "Review: {SummariesDays: -3}", "Review.SummariesDays"},
		{"stall max", "StallThresholdSeconds: 31536000", ""},
		{"stall max+1", "StallThresholdSeconds: 31536001", "StallThresholdSeconds"},
		{"stall 1e300", "StallThresholdSeconds: 1e300", "StallThresholdSeconds"},
		{"stall negative", "StallThresholdSeconds: -1", "StallThresholdSeconds"},
		{"stall 1.5", "StallThresholdSeconds: 1.5", ""},
		{"spike factor 1e300", "TokenSpikeFactor: 1e300", ""},
		{"spike min negative", "TokenSpikeMin: -1", "TokenSpikeMin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.body + "\n"))
			if err == nil {
				c.file = file
				err = c.Validate()
			}
			if tc.bad == "" {
				if err != nil {
					t.Fatalf("%s: %v", tc.body, err)
				}
				return
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Key != tc.bad || ce.File != file || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s: err = %v (%T), want a one-line *Error on %s", tc.body, err, err, tc.bad)
			}
		})
	}
}

// TestDurationsSaturate checks the helpers that turn counts into durations
// and byte caps: past the range of int64 they stay at its maximum instead
// of wrapping negative, which is what made 106,752 days delete fresh files.
func TestDurationsSaturate(t *testing.T) {
	t.Parallel()
	const maxDur = time.Duration(math.MaxInt64)
	for _, tc := range []struct {
		n    int
		want time.Duration
	}{
		{0, 0}, {1, 24 * time.Hour}, {36500, 36500 * 24 * time.Hour}, {106751, 106751 * 24 * time.Hour},
		{106752, maxDur}, {math.MaxInt, maxDur}, {-1, 0}, {math.MinInt, 0},
	} {
		if got := Days(tc.n); got != tc.want {
			t.Errorf("Days(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
	if got := Hours(math.MaxInt); got != maxDur {
		t.Errorf("Hours(MaxInt) = %v", got)
	}
	for _, tc := range []struct {
		n    int
		want int64
	}{
		{0, 0}, {1, 1 << 20}, {1 << 30, 1 << 50}, {1 << 43, 1<<63 - 1}, {1 << 44, math.MaxInt64},
		{math.MaxInt, math.MaxInt64}, {-1, 0},
	} {
		if got := MiB(tc.n); got != tc.want {
			t.Errorf("MiB(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct {
		s    float64
		want time.Duration
	}{
		{0, 0}, {1.5, 1500 * time.Millisecond}, {math.NaN(), 0}, {math.Inf(1), maxDur}, {math.Inf(-1), 0},
		{1e300, maxDur}, {-5, 0},
	} {
		if got := Seconds(tc.s); got != tc.want {
			t.Errorf("Seconds(%g) = %v, want %v", tc.s, got, tc.want)
		}
	}
	// The config's own helpers use them.
	c := Config{RetainedDays: 106752, MaxTotalSizeMb: 1 << 44, MaxFileSizeMb: 1 << 44, StallThresholdSeconds: math.Inf(1),
		Review: ReviewRetention{FullEventsHours: math.MaxInt, FlaggedDays: 106752, SummariesDays: math.MaxInt}}
	if c.Retention() != maxDur || c.MaxTotalBytes() != math.MaxInt64 || c.MaxFileBytes() != math.MaxInt64 ||
		c.StallThreshold() != maxDur || c.Review.FullEvents() != maxDur || c.Review.Flagged() != maxDur ||
		c.Review.Summaries() != maxDur {
		t.Errorf("helpers wrap: %v %d %d %v %v %v %v", c.Retention(), c.MaxTotalBytes(), c.MaxFileBytes(),
			c.StallThreshold(), c.Review.FullEvents(), c.Review.Flagged(), c.Review.Summaries())
	}
}

// TestReloadRejectsOverflow checks the path the inbox and `sift serve`
// reload through: a file changed to a value that once wrapped is an
// error, and the running settings stay.
func TestReloadRejectsOverflow(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "config.yaml")
	touch(t, p, "RetainedDays: 14\n", 0)
	start, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWatcher(p, start, time.Millisecond)
	for i, body := range []string{"RetainedDays: 106752\n", "MaxTotalSizeMb: 17592186044416\n", "RetainedDays: 1.5\n",
		"StallThresholdSeconds: .inf\n", "Review: {FlaggedDays: 106752}\n"} {
		touch(t, p, body, i+1)
		u, ok := w.Poll()
		if !ok || u.Err == nil || !strings.Contains(u.Err.Error(), "keeping the current settings") ||
			strings.Contains(u.Err.Error(), "\n") {
			t.Errorf("%q reloaded: %+v", body, u)
		}
	}
}
