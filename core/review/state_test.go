package review

import (
	"testing"
	"time"

	"github.com/agentsift/sift/core/summary"
)

// stateTurns are two flagged turns (t1 with call c1, t3 with c3) around
// an unflagged one.
func stateTurns() ([]summary.Turn, []summary.ToolCall) {
	turns := []summary.Turn{
		{TurnID: "t1", ToolCallIDs: []string{"c1"}, Flags: []summary.Flag{summary.FlagToolFailed}},
		{TurnID: "t2", ToolCallIDs: []string{"c2"}},
		{TurnID: "t3", ToolCallIDs: []string{"c3"}, Flags: []summary.Flag{summary.FlagStall}},
	}
	calls := []summary.ToolCall{{ID: "c1", TurnID: "t1"}, {ID: "c2", TurnID: "t2"}, {ID: "c3", TurnID: "t3"}}
	return turns, calls
}

func TestState(t *testing.T) {
	t.Parallel()
	turns, calls := stateTurns()
	on := func(k DecisionKind, turn, call string) Decision {
		return Decision{Kind: k, TurnID: turn, ToolCallID: call}
	}
	for _, tc := range []struct {
		name    string
		current []Decision
		want    DecisionKind
	}{
		{"nothing decided", nil, ""},
		{"the session decided", []Decision{on(Ignored, "", "")}, Ignored},
		{"the session decision wins over its turns", []Decision{on(NeedsFollowup, "t1", ""), on(Reviewed, "", "")}, Reviewed},
		{"one flagged turn of two", []Decision{on(Reviewed, "t1", "")}, ""},
		{"an unflagged turn does not count", []Decision{on(Reviewed, "t1", ""), on(Reviewed, "t2", "")}, ""},
		{"every flagged turn reviewed", []Decision{on(Reviewed, "t1", ""), on(Reviewed, "t3", "")}, Reviewed},
		{"a call decides its turn", []Decision{on(Reviewed, "t1", "c1"), on(Ignored, "t3", "")}, Reviewed},
		{"a call without its turn id decides its turn", []Decision{on(Ignored, "", "c1"), on(Ignored, "", "c3")}, Ignored},
		{"a follow-up rolls up first", []Decision{on(Reviewed, "t1", ""), on(NeedsFollowup, "", "c3")}, NeedsFollowup},
	} {
		if got := State(turns, calls, tc.current); got != tc.want {
			t.Errorf("%s: State = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := State(nil, nil, []Decision{on(Reviewed, "t1", "")}); got != "" {
		t.Errorf("a session without flagged turns rolls up to %q: only its own decision decides it", got)
	}
}

func TestCurrentAndUndo(t *testing.T) {
	t.Parallel()
	h := []Decision{
		{ID: 1, Kind: Reviewed, TurnID: "t1"},
		{ID: 2, Kind: Ignored, TurnID: "t1"},
		{ID: 3, Kind: NeedsFollowup},
		{ID: 4, Kind: Undone, Supersedes: 2, TurnID: "t1"},
	}
	cur := Current(h)
	if len(cur) != 2 || cur[0].ID != 1 || cur[1].ID != 3 {
		t.Errorf("Current = %+v: want t1 back to decision 1 (2 withdrawn), then the session's 3", cur)
	}
	if d := Undoable(h); d == nil || d.ID != 3 {
		t.Errorf("Undoable = %+v, want decision 3, the latest not withdrawn", d)
	}
	h = append(h, Decision{ID: 5, Kind: Undone, Supersedes: 3}, Decision{ID: 6, Kind: Undone, Supersedes: 1, TurnID: "t1"})
	if d := Undoable(h); d != nil {
		t.Errorf("Undoable = %+v after every decision was withdrawn", d)
	}
	if cur := Current(h); len(cur) != 0 {
		t.Errorf("Current = %+v after every decision was withdrawn", cur)
	}
}

func TestOpenFollowup(t *testing.T) {
	t.Parallel()
	f := Decision{ID: 5, Kind: NeedsFollowup, TurnID: "t1"}
	for _, tc := range []struct {
		name    string
		session *Decision
		want    bool
	}{
		{"no session decision", nil, true},
		{"an earlier session review", &Decision{ID: 4, Kind: Reviewed}, true},
		{"a later session review closes it", &Decision{ID: 6, Kind: Reviewed}, false},
		{"a later session ignore does not", &Decision{ID: 6, Kind: Ignored}, true},
	} {
		if got := f.OpenFollowup(tc.session); got != tc.want {
			t.Errorf("%s: OpenFollowup = %v, want %v", tc.name, got, tc.want)
		}
	}
	if (&Decision{Kind: Reviewed}).OpenFollowup(nil) {
		t.Error("a review is an open follow-up")
	}
}

// A decision read back from an old export is stored after today's but was
// made before it: the current decision, the one an undo withdraws and
// whether a review closed a follow-up go by time, then by ID.
func TestCurrentIsLatestByTime(t *testing.T) {
	t.Parallel()
	today := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	old := time.Date(2020, 1, 2, 9, 0, 0, 0, time.UTC)
	h := []Decision{
		{ID: 1, Kind: NeedsFollowup, Note: "why rm -rf?", CreatedAt: today},
		{ID: 2, Kind: Reviewed, CreatedAt: old},
	}
	if cur := Current(h); len(cur) != 1 || cur[0].ID != 1 {
		t.Errorf("Current = %+v: want today's decision 1, not the 2020 decision imported after it", cur)
	}
	if d := Undoable(h); d == nil || d.ID != 1 {
		t.Errorf("Undoable = %+v, want today's decision 1", d)
	}
	fu := Decision{ID: 3, Kind: NeedsFollowup, TurnID: "t1", CreatedAt: today}
	closing := Decision{ID: 4, Kind: Reviewed, CreatedAt: old}
	if !fu.OpenFollowup(&closing) {
		t.Error("a 2020 review imported today closed today's follow-up")
	}
	same := []Decision{{ID: 5, Kind: Reviewed, CreatedAt: today}, {ID: 6, Kind: Ignored, CreatedAt: today}}
	if cur := Current(same); len(cur) != 1 || cur[0].ID != 6 {
		t.Errorf("Current = %+v: of two made in the same millisecond, the one recorded last is current", cur)
	}
}
