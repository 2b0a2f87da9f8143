package review

import "time"

// DecisionKind is what a reviewer decided about a session, turn or tool
// call.
type DecisionKind string

// The decisions a reviewer can record.
const (
	Reviewed      DecisionKind = "reviewed"
	NeedsFollowup DecisionKind = "needs_followup"
	Ignored       DecisionKind = "ignored"
)

// Undone is the kind of an undo in a session's history: the event that
// withdraws an earlier decision (Decision.Supersedes names it). It is not
// one of DecisionKinds: a reviewer records it by undoing, never by
// choosing it, and it is never a target's current decision.
const Undone DecisionKind = "undone"

// DecisionKinds lists the valid decisions, in the order a reviewer is
// offered them.
func DecisionKinds() []DecisionKind { return []DecisionKind{Reviewed, NeedsFollowup, Ignored} }

// Valid reports whether k is one of DecisionKinds: a kind a reviewer may
// record as a decision (Undone is recorded by an undo, not chosen).
func (k DecisionKind) Valid() bool {
	switch k {
	case Reviewed, NeedsFollowup, Ignored:
		return true
	}
	return false
}

// IsOpen reports whether the decision leaves work to do: an open
// needs_followup decision keeps its session flagged.
func (k DecisionKind) IsOpen() bool { return k == NeedsFollowup }

// Decision is one decision a reviewer recorded. Its target is the
// session, narrowed to a turn by TurnID and to a tool call by ToolCallID.
// The current state of a target is its latest decision that no undo
// withdrew; earlier ones stay as history. An undo is itself a Decision of
// kind Undone that names the decision it withdraws (Supersedes), on the
// same target: decisions stay append-only.
//
// Its JSON is the form a session's JSON carries it in (the summary JSON's
// "decision" and "decisions"): the kind, note, reviewer and time, then the
// target within the session. The session and the id are left out there;
// the API's decision routes add them in front.
type Decision struct {
	// ID orders decisions; the store sets it.
	ID      int64        `json:"-"`
	Session SessionKey   `json:"-"`
	Kind    DecisionKind `json:"decision"`
	Note    string       `json:"note,omitempty"`
	// Reviewer is the reviewer's id.
	Reviewer string `json:"reviewerId,omitempty"`
	// CreatedAt is set by the store when zero.
	CreatedAt  time.Time `json:"createdAt"`
	TurnID     string    `json:"turnId,omitempty"`
	ToolCallID string    `json:"toolCallId,omitempty"`
	// Supersedes is, on an undo (Kind Undone), the ID of the decision it
	// withdraws; 0 on every other decision.
	Supersedes int64 `json:"supersedes,omitempty"`
	// SeenLine is how far the reviewer had seen: the session's last line
	// when they decided (the store sets it when 0). A session that grows
	// past it is undecided again (Session.NewSince). 0 on decisions
	// recorded before sift kept it.
	SeenLine int `json:"seenLine,omitempty"`
}

// OnSession reports whether the decision is on the session itself rather
// than on one of its turns or tool calls.
func (d *Decision) OnSession() bool { return d.TurnID == "" && d.ToolCallID == "" }
