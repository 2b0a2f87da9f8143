package export

import (
	"fmt"
	"strconv"
	"time"
)

// The report's words for an unknown figure: a dash in a table, a word in
// a sentence. An unknown cost or time is never printed as zero.
const (
	dash    = "—"
	unknown = "unknown"
)

// window says a report's window: since its start, or all time for the
// zero time (a --since past a hundred years).
func window(since time.Time) string {
	if since.IsZero() {
		return "in all time"
	}
	return "since " + fmtTime(since)
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return unknown
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// fmtDuration prints milliseconds as a short duration (1m30s, 850ms).
func fmtDuration(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	if d >= time.Second {
		d = d.Round(time.Second)
	}
	return d.String()
}

// fmtDurationOf is fmtDuration of a figure that may be unknown (a dash).
func fmtDurationOf(ms *int64) string {
	if ms == nil {
		return dash
	}
	return fmtDuration(*ms)
}

// fmtUSD prints a known cost: cents above a dollar, four places below.
func fmtUSD(v float64) string {
	switch {
	case v == 0:
		return "$0"
	case v < 1:
		return "$" + strconv.FormatFloat(v, 'f', 4, 64)
	}
	return "$" + strconv.FormatFloat(v, 'f', 2, 64)
}

// fmtSpendCost is a table's cost cell: the known costs added and how many
// runs had none, a dash when no run's cost is known.
func fmtSpendCost(usd *float64, unknownRuns int) string {
	switch {
	case usd == nil:
		return dash
	case unknownRuns > 0:
		return fmt.Sprintf("%s + %d %s", fmtUSD(*usd), unknownRuns, unknown)
	}
	return fmtUSD(*usd)
}

// costWords is an entry's cost in words: "$0.35", "cost unknown", or
// "$1.20 + 2 runs of unknown cost".
func costWords(usd *float64, unknownRuns int) string {
	switch {
	case usd == nil:
		return "cost " + unknown
	case unknownRuns > 0:
		return fmt.Sprintf("%s + %s of unknown cost", fmtUSD(*usd), plural(unknownRuns, "run"))
	}
	return fmtUSD(*usd)
}

// spentWords is the top line's spend: "$1.37 spent", with how many runs
// have no known cost.
func spentWords(usd *float64, unknownRuns int) string {
	switch {
	case usd == nil:
		return "spend " + unknown
	case unknownRuns > 0:
		return fmt.Sprintf("%s spent (and %s of unknown cost)", fmtUSD(*usd), plural(unknownRuns, "run"))
	}
	return fmtUSD(*usd) + " spent"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
