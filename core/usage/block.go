package usage

import (
	"sort"
	"time"
)

// blockMs is the length of a billing block: five hours (ccusage's
// DEFAULT_SESSION_DURATION_HOURS).
const blockMs = 5 * int64(time.Hour/time.Millisecond)

// hourMs is an hour in milliseconds.
const hourMs = int64(time.Hour / time.Millisecond)

// blocks groups the calls into billing blocks as ccusage 18.0.11 tells
// them (identifySessionBlocks in its data loader): in time order, a block
// starts at its first call's hour, floored in UTC (floorToHour); a call
// more than five hours after its block's start, or more than five hours
// after the call before it, starts the next block. A block ends five hours
// after its start. The gaps ccusage lists between blocks hold no calls and
// are no rows here. A block is kept whole when its start lies in the
// window [since, until), as ccusage filters blocks by their start.
func (a *agg) blocks() {
	calls := a.calls
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].At < calls[j].At })
	for i := 0; i < len(calls); {
		start := floorHour(calls[i].At)
		j := i + 1
		for j < len(calls) && calls[j].At-start <= blockMs && calls[j].At-calls[j-1].At <= blockMs {
			j++
		}
		if start >= a.since && start < a.until {
			r := a.row(time.UnixMilli(start).In(a.loc).Format(time.RFC3339))
			r.start, r.end, r.last = start, start+blockMs, calls[j-1].At
			for _, c := range calls[i:j] {
				a.count(r, c)
			}
		}
		i = j
	}
	a.calls = nil
}

// floorHour returns a unix ms time floored to its hour (in UTC, which for
// unix time is any zone of whole-hour offset).
func floorHour(ms int64) int64 {
	return ms - ((ms%hourMs)+hourMs)%hourMs
}
