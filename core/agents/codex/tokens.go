package codex

import (
	"strconv"

	"github.com/agentsift/sift/core/event"
)

// The token accounting of a Codex rollout. Each token_count event carries
// TokenUsageInfo: total_token_usage, the thread's running total, and
// last_token_usage, the last call's. The running total is the truth:
//
//   - a call's usage is the change in the total since the last token_count;
//   - a token_count that repeats the last total (Codex repeats one, byte for
//     byte, with only new rate limits) is no call and adds nothing;
//   - last_token_usage is used only where the total is absent, and for the
//     first token_count of a file, whose total may include what a resumed
//     thread counted before this file began: the file counts its growth;
//   - a total that goes down is never summed with what came before as a
//     negative change. Where the new total equals last_token_usage, the
//     counter restarted with this call (Codex 0.153.4 restarts it when a
//     session is resumed): the call is last_token_usage, counted, and
//     flagged token_counter_reset. Otherwise nothing explains the drop
//     (no last_token_usage, or one the total does not equal: Codex's
//     fill_to_context_window zeroes the counters): the call is still read
//     (last_token_usage, else the new total) but the session's total is
//     unknown (tokenTotalUnknown), as claude-code-log omits a total whose
//     running counter decreased;
//   - each call is named by the thread it belongs to (the session_meta
//     last seen: a forked rollout first copies its parent's session_meta
//     and history, re-stamped) and its position, the running total after
//     it, so that a call copied into a fork counts once (ingest's CallKey).

// codexCounts are the five counters of a TokenUsage.
type codexCounts struct {
	input, cached, output, reasoning, total int64
}

// countsOf reads a TokenUsage; absent counters read 0 and an absent
// total_tokens is input + output, as Codex computes it.
func countsOf(u *codexTokenUsage) codexCounts {
	v := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	c := codexCounts{v(u.Input), v(u.Cached), v(u.Output), v(u.Reasoning), v(u.Total)}
	if u.Total == nil {
		c.total = c.input + c.output
	}
	return c
}

// minus is the change from p to c, counter by counter.
func (c codexCounts) minus(p codexCounts) codexCounts {
	return codexCounts{c.input - p.input, c.cached - p.cached, c.output - p.output,
		c.reasoning - p.reasoning, c.total - p.total}
}

// below reports whether any counter of c is lower than p's: the running
// total went down, which only a restarted counter does.
func (c codexCounts) below(p codexCounts) bool {
	return c.input < p.input || c.cached < p.cached || c.output < p.output ||
		c.reasoning < p.reasoning || c.total < p.total
}

// zero reports counts that hold no tokens.
func (c codexCounts) zero() bool {
	return c.input == 0 && c.cached == 0 && c.output == 0 && c.reasoning == 0
}

// codexTokens follows the running total of one rollout.
type codexTokens struct {
	// prev is the last running total seen; seen says there is one.
	prev codexCounts
	seen bool
	// thread is the id of the last session_meta read.
	thread string
	// resets counts the counter restarts.
	resets int
}

// codexReset says how a token_count's running total follows the last one.
type codexReset uint8

const (
	// codexGrew is a total that grew (or the file's first).
	codexGrew codexReset = iota
	// codexRestarted is a total that went down to the call's own usage:
	// the counter restarted with this call.
	codexRestarted
	// codexUnexplained is a total that went down where nothing says why.
	codexUnexplained
)

// call returns the usage of one token_count as a call, whether it is one,
// and how the running total follows the last one.
func (t *codexTokens) call(info *codexTokenInfo) (c codexCounts, ok bool, reset codexReset) {
	if info.Total == nil {
		if info.Last == nil {
			return codexCounts{}, false, codexGrew
		}
		c = countsOf(info.Last)
		return c, !c.zero(), codexGrew
	}
	total := countsOf(info.Total)
	switch {
	case t.seen && total == t.prev:
		return codexCounts{}, false, codexGrew
	case !t.seen, total.below(t.prev):
		c = total
		if info.Last != nil {
			// The total may include what came before this file, or
			// before the restart: only the last call is this file's.
			c = countsOf(info.Last)
		}
		if t.seen {
			reset = codexUnexplained
			if info.Last != nil && c == total {
				reset = codexRestarted
			}
		}
	default:
		c = total.minus(t.prev)
	}
	t.prev, t.seen = total, true
	if reset != codexGrew {
		t.resets++
	}
	return c, !c.zero(), reset
}

// key names the call that brought the running total to the last one seen:
// the thread and the five counters.
func (t *codexTokens) key() string {
	b := make([]byte, 0, len(t.thread)+64)
	b = append(b, "codex:"...)
	b = append(b, t.thread...)
	for _, v := range [...]int64{t.prev.input, t.prev.cached, t.prev.output, t.prev.reasoning, t.prev.total} {
		b = append(b, ':')
		b = strconv.AppendInt(b, v, 10)
	}
	return string(b)
}

// usage is the call's update: input_tokens includes the cached share.
func (c codexCounts) usage() event.Update {
	in, cached, out := c.input, c.cached, c.output
	u := event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall,
		PromptTokens: &in, CompletionTokens: &out, CachedTokens: &cached}
	if c.reasoning != 0 {
		u.UsageExtra = map[string]int64{"reasoning_output_tokens": c.reasoning}
	}
	return u
}
