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

// DecisionKinds lists the valid decisions, in the order a reviewer is
// offered them.
func DecisionKinds() []DecisionKind { return []DecisionKind{Reviewed, NeedsFollowup, Ignored} }

// Valid reports whether k is one of DecisionKinds.
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
// The current state of a target is its latest decision; earlier ones stay
// as history.
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
}

// OnSession reports whether the decision is on the session itself rather
// than on one of its turns or tool calls.
func (d *Decision) OnSession() bool { return d.TurnID == "" && d.ToolCallID == "" }
