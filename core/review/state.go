package review

import (
	"errors"
	"slices"
	"strings"

	"github.com/agentsift/sift/core/summary"
)

// ErrNothingToUndo is the error of an undo on a session whose every
// decision is withdrawn already, or that has none.
var ErrNothingToUndo = errors.New("nothing to undo")

// ErrFollowupNeedsNote refuses a needs_followup decision without a note:
// the note is what should happen next, and what a resume sends. Every
// surface (the inbox, sift decide, the API) refuses it with these words;
// only an import of decisions exported before keeps old ones.
var ErrFollowupNeedsNote = errors.New("a follow-up needs a note: what should happen next?")

// CheckNote refuses a needs_followup decision without a note.
func CheckNote(kind DecisionKind, note string) error {
	if kind == NeedsFollowup && strings.TrimSpace(note) == "" {
		return ErrFollowupNeedsNote
	}
	return nil
}

// Withdrawn returns the IDs of the decisions of a history (oldest first,
// as a store's Decisions returns it) that an undo withdrew.
func Withdrawn(history []Decision) map[int64]bool {
	out := map[int64]bool{}
	for i := range history {
		if d := &history[i]; d.Kind == Undone && d.Supersedes != 0 {
			out[d.Supersedes] = true
		}
	}
	return out
}

// Later reports whether d was made after e: by time, then, for two made
// in the same millisecond, recorded after (a larger ID). A decision read
// back from an old export is recorded after today's but made before it,
// and never displaces it.
func (d *Decision) Later(e *Decision) bool {
	if c := d.CreatedAt.Compare(e.CreatedAt); c != 0 {
		return c > 0
	}
	return d.ID > e.ID
}

// byTime returns history ordered by when each decision was made (Later),
// oldest first; history itself is left as it is.
func byTime(history []Decision) []Decision {
	out := slices.Clone(history)
	slices.SortStableFunc(out, func(a, b Decision) int {
		switch {
		case a.Later(&b):
			return 1
		case b.Later(&a):
			return -1
		}
		return 0
	})
	return out
}

// Current returns the current decision of every target of a history: for
// each target (the session, a turn, a tool call), its latest decision by
// time (Later) that no undo withdrew, oldest first. Undos are never
// current.
func Current(history []Decision) []Decision {
	history = byTime(history)
	gone := Withdrawn(history)
	type target struct{ turn, call string }
	latest := map[target]int{}
	for i, d := range history {
		if d.Kind != Undone && !gone[d.ID] {
			latest[target{d.TurnID, d.ToolCallID}] = i
		}
	}
	var out []Decision
	for i, d := range history {
		if j, ok := latest[target{d.TurnID, d.ToolCallID}]; ok && j == i {
			out = append(out, d)
		}
	}
	return out
}

// Undoable returns the decision an undo of the session withdraws: the
// latest one of its history that is neither an undo nor withdrawn; nil
// when there is none.
func Undoable(history []Decision) *Decision {
	history = byTime(history)
	gone := Withdrawn(history)
	for i := len(history) - 1; i >= 0; i-- {
		if d := &history[i]; d.Kind != Undone && !gone[d.ID] {
			return d
		}
	}
	return nil
}

// OpenFollowup reports whether a current decision is an open follow-up: a
// needs_followup that no later session-level reviewed decision closed.
// session is the session's current session-level decision, nil when it
// has none. Later means made after (Decision.Later).
func (d *Decision) OpenFollowup(session *Decision) bool {
	if d.Kind != NeedsFollowup {
		return false
	}
	if session == nil || d.OnSession() {
		return true
	}
	return session.Kind != Reviewed || !session.Later(d)
}

// State is a session's review state from its current decisions (each
// target's latest, undos never among them) and its turns and tool calls:
//
//   - the kind of its session-level decision, when it has one;
//   - else, when it has flagged turns and every one is decided (by a
//     decision on the turn or on one of its tool calls), the decisions
//     rolled up: needs_followup when one of them is, else reviewed when one
//     of them is, else ignored;
//   - else "", undecided.
//
// A session is undecided in the inbox (the undecided count and filter,
// the triage order's first segment) exactly when its state is "".
func State(turns []summary.Turn, calls []summary.ToolCall, current []Decision) DecisionKind {
	for i := range current {
		if current[i].OnSession() {
			return current[i].Kind
		}
	}
	flagged := map[string]bool{}
	for i := range turns {
		if len(turns[i].Flags) > 0 {
			flagged[turns[i].TurnID] = false
		}
	}
	if len(flagged) == 0 {
		return ""
	}
	turnOf := map[string]string{}
	for i := range calls {
		turnOf[calls[i].ID] = calls[i].TurnID
	}
	seen := map[DecisionKind]bool{}
	for _, d := range current {
		t := d.TurnID
		if t == "" {
			t = turnOf[d.ToolCallID]
		}
		if _, ok := flagged[t]; ok {
			flagged[t] = true
			seen[d.Kind] = true
		}
	}
	for _, decided := range flagged {
		if !decided {
			return ""
		}
	}
	for _, k := range []DecisionKind{NeedsFollowup, Reviewed, Ignored} {
		if seen[k] {
			return k
		}
	}
	return ""
}

// Followup is an open follow-up (see Decision.OpenFollowup) with what it
// takes to act on it.
type Followup struct {
	Decision Decision
	// Session is the session it is on: its list fields (a brief summary,
	// without tool calls), its working directory when sift run recorded
	// one.
	Session Session
	// Call is the failing call: the tool call decided on, else the first
	// failed call of the turn decided on, else of the session; nil when
	// there is none.
	Call *summary.ToolCall
}

// FailingCall picks a follow-up's failing call from the session's tool
// calls: the call decided on, else the first failed one of the turn
// decided on, else of the session; nil when none failed.
func FailingCall(d *Decision, calls []summary.ToolCall) *summary.ToolCall {
	if d.ToolCallID != "" {
		for i := range calls {
			if calls[i].ID == d.ToolCallID {
				return &calls[i]
			}
		}
	}
	var first *summary.ToolCall
	for i := range calls {
		c := &calls[i]
		if c.Success == nil || *c.Success {
			continue
		}
		if d.TurnID != "" && c.TurnID == d.TurnID {
			return c
		}
		if first == nil {
			first = c
		}
	}
	return first
}
