package ingest

import (
	"testing"
	"time"

	"github.com/agentsift/sift/core/event"
)

// usageEvent is a Claude call's usage report, as the history parser
// emits it.
func usageEvent(msg, req string, at time.Time, in, out int64) *event.Event {
	ev := &event.Event{MessageID: msg, Timestamp: at, Model: "claude-opus-4-6",
		Update: event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall, CompletionTokens: &out,
			UsageExtra: map[string]int64{"input_tokens": in}}}
	if req != "" {
		ev.Extra = map[string]any{"requestId": req}
	}
	return ev
}

// TestUsageCountsAMessageOnce pins the one counting rule of the inbox and
// `sift usage`: a message id repeated in a file counts once, with its last
// report at its first time, whether or not its lines carry a request id
// (ccusage 18.0.11 counts the repeats without one:
// TestUsageRequestlessRepeatsDifferFromCcusage); other messages, and
// reports naming no message, count apart.
func TestUsageCountsAMessageOnce(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 29, 19, 31, 18, 0, time.UTC)
	var u Usage
	for _, ev := range []*event.Event{
		usageEvent("msg_a", "", t0, 1200, 30),
		usageEvent("msg_a", "", t0.Add(time.Millisecond), 1200, 40),
		usageEvent("msg_b", "req_1", t0.Add(time.Second), 500, 30),
		usageEvent("msg_b", "req_2", t0.Add(2*time.Second), 500, 31),
		usageEvent("", "", t0.Add(3*time.Second), 7, 1),
		usageEvent("", "", t0.Add(4*time.Second), 7, 1),
	} {
		u.add(ev)
	}
	if len(u.Entries) != 4 {
		t.Fatalf("%d entries, want 4 (msg_a, msg_b and two without an id): %+v", len(u.Entries), u.Entries)
	}
	a, b := u.Entries[0], u.Entries[1]
	if a.At != t0.UnixMilli() || a.Output != 40 || a.Input != 1200 {
		t.Errorf("msg_a: %+v, want its last report (40 out) at its first time", a)
	}
	if b.Output != 31 || b.Key != callKey(usageEvent("msg_b", "req_2", t0, 0, 0)) {
		t.Errorf("msg_b: %+v, want its last report under its last request id", b)
	}
	if len(u.Models) != 1 {
		t.Errorf("models %v, want one", u.Models)
	}
}

// TestUsageMarksSidechainCalls: a call the Claude parser marks isSidechain
// keeps its mark and its message's key, by which `sift usage` lets the main
// chain's call replace a sidechain's replay of it met in another file
// (usage.TestParentReplacesSidechainReplay); a call without a request id
// carries no message key, as ccusage leaves it out of that rule.
func TestUsageMarksSidechainCalls(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 29, 7, 0, 0, 0, time.UTC)
	replay := usageEvent("msg-parent", "req-sidechain-replay", t0, 0, 10)
	replay.Extra["isSidechain"] = true
	var side, main Usage
	side.add(replay)
	main.add(usageEvent("msg-parent", "req-parent", t0, 0, 10))
	main.add(usageEvent("msg-plain", "", t0.Add(time.Second), 0, 10))
	s, m := side.Entries[0], main.Entries[0]
	if !s.Sidechain || m.Sidechain || s.Message == 0 || s.Message != m.Message || s.Key == m.Key {
		t.Errorf("replay %+v, parent %+v: want one message key, the replay marked, two call keys", s, m)
	}
	if p := main.Entries[1]; p.Message != 0 || p.Sidechain {
		t.Errorf("call without a request id %+v: want no message key", p)
	}
}
