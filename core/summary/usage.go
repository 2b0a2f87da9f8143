package summary

import (
	"strings"

	"github.com/agentsift/sift/core/event"
)

// tokens is one usage report, or a sum of them: values, not pointers, so
// that a turn's reports keep nothing of the events they came from. A
// counter the harness did not print is absent (its bit in has unset) and
// reads as 0.
type tokens struct {
	in, out, cached, write int64
	cost                   float64
	has                    tokenBits
}

// tokenBits says which counters a report has.
type tokenBits uint8

const (
	hasIn tokenBits = 1 << iota
	hasOut
	hasCached
	hasWrite
	hasCost
)

// cacheWriteKeys are the harnesses' names for the cache-written share of
// the prompt, as parsers keep them in UsageExtra.
var cacheWriteKeys = []string{
	"cache_creation_input_tokens", "cache_write_input_tokens", "cacheWriteTokens",
	"cache_write_tokens", "cache_write", "cacheWrite",
}

func tokensOf(u *event.Update) tokens {
	var t tokens
	for _, c := range [...]struct {
		dst *int64
		src *int64
		bit tokenBits
	}{{&t.in, u.PromptTokens, hasIn}, {&t.out, u.CompletionTokens, hasOut}, {&t.cached, u.CachedTokens, hasCached}} {
		if c.src != nil {
			*c.dst = max(*c.src, 0)
			t.has |= c.bit
		}
	}
	if u.CostUSD != nil {
		t.cost, t.has = event.USD(*u.CostUSD), t.has|hasCost
	}
	if v, ok := CacheWrite(u.UsageExtra); ok {
		t.write, t.has = v, t.has|hasWrite
	}
	return t
}

// CacheWrite is the cache-written share of a usage's prompt, by the first
// of the harnesses' names for it (cacheWriteKeys) its extras hold; false
// when they hold none.
func CacheWrite(extra map[string]int64) (int64, bool) {
	for _, k := range cacheWriteKeys {
		if v, ok := extra[k]; ok {
			return max(v, 0), true
		}
	}
	return 0, false
}

// add sums another report into t, counter by counter, saturated
// (event.AddCount); a counter stays absent only when neither side has it.
func (t *tokens) add(o tokens) {
	t.in = event.AddCount(t.in, o.in)
	t.out = event.AddCount(t.out, o.out)
	t.cached = event.AddCount(t.cached, o.cached)
	t.write = event.AddCount(t.write, o.write)
	t.cost = event.AddUSD(t.cost, o.cost)
	t.has |= o.has
}

// get returns a counter for the summary: nil when absent.
func (t tokens) get(bit tokenBits) *int64 {
	if t.has&bit == 0 {
		return nil
	}
	var v int64
	switch bit {
	case hasIn:
		v = t.in
	case hasOut:
		v = t.out
	case hasCached:
		v = t.cached
	case hasWrite:
		v = t.write
	}
	return &v
}

// costUSD returns the cost for the summary: nil when absent.
func (t tokens) costUSD() *float64 {
	if t.has&hasCost == 0 {
		return nil
	}
	v := t.cost
	return &v
}

// turnUsage holds the call-scope usage of one turn: the last snapshot per
// message id (a message's content blocks repeat its usage) and the sum of
// reports that name no message. A turn is mostly one message, so the ids
// are searched in order; the index is built only for a turn with many.
type turnUsage struct {
	msgs []msgUsage
	byID map[string]int
	// noID is the sum of the reports without a message id (rare: most
	// harnesses name the message), nil when there are none.
	noID *tokens
	any  bool
}

// msgUsage is the last report of one message.
type msgUsage struct {
	id string
	t  tokens
}

// manyIDs is the number of message ids past which a turn indexes them.
const manyIDs = 8

// add records a report of message id; kept is a copy of the id to share
// when equal (the turn's own message id), so that it is not copied again.
func (u *turnUsage) add(id, kept string, t tokens) {
	u.any = true
	if id == "" {
		if u.noID == nil {
			u.noID = &tokens{}
		}
		u.noID.add(t)
		return
	}
	if i := u.find(id); i >= 0 {
		u.msgs[i].t = t
		return
	}
	// The id is copied: the event's may point into a line being read.
	if id == kept {
		id = kept
	} else {
		id = strings.Clone(id)
	}
	u.msgs = append(u.msgs, msgUsage{id: id, t: t})
	switch {
	case u.byID != nil:
		u.byID[id] = len(u.msgs) - 1
	case len(u.msgs) > manyIDs:
		u.byID = make(map[string]int, 2*len(u.msgs))
		for i, m := range u.msgs {
			u.byID[m.id] = i
		}
	}
}

// find returns the index of a message id, or -1.
func (u *turnUsage) find(id string) int {
	if u.byID != nil {
		if i, ok := u.byID[id]; ok {
			return i
		}
		return -1
	}
	for i, m := range u.msgs {
		if m.id == id {
			return i
		}
	}
	return -1
}

// total returns the turn's tokens: the last snapshot of each message
// added across messages, plus the id-less reports.
func (u *turnUsage) total() tokens {
	var t tokens
	if u.noID != nil {
		t = *u.noID
	}
	for _, m := range u.msgs {
		t.add(m.t)
	}
	return t
}

// flagSet is a set of flags kept in their declared order.
type flagSet uint16

// flagOrder lists the flags in the order summaries print them.
var flagOrder = []Flag{
	FlagToolFailed, FlagApproval, FlagHarnessError, FlagTokenSpike, FlagStall,
	FlagUnfinishedTool, FlagRunFailed, FlagTruncated, FlagUsageMismatch, FlagTokenCounterReset,
}

func (s *flagSet) add(f Flag) {
	for i, g := range flagOrder {
		if g == f {
			*s |= 1 << i
		}
	}
}

func (s flagSet) has(f Flag) bool {
	var one flagSet
	one.add(f)
	return s&one != 0
}

func (s flagSet) list() []Flag {
	out := []Flag{}
	for i, f := range flagOrder {
		if s&(1<<i) != 0 {
			out = append(out, f)
		}
	}
	return out
}
