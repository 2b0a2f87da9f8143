// Package review is sift's review vocabulary, shared by the store, the
// inbox (tui), the HTTP API and the commands: which session a reviewer
// looks at (SessionKey), how the inbox asks for sessions (Query, SortKey)
// and what it gets back (Session, Page), and what a reviewer records
// (Decision, DecisionKind). The inbox's `/` is a search (Query.Search),
// whose language is core/search's.
//
// It knows summaries and events, never SQL or terminals: the store
// implements the queries, the inbox draws their answers.
package review

import "strconv"

// SessionKey identifies a session: one stream file of a work item.
type SessionKey struct {
	WorkItemID string
	FileName   string
}

// String returns the key as `<workItemId>/<fileName>`.
func (k SessionKey) String() string { return k.WorkItemID + "/" + k.FileName }

// IsZero reports whether the key names no session.
func (k SessionKey) IsZero() bool { return k.WorkItemID == "" && k.FileName == "" }

// Label is a session's "work item · phase-iteration" label, as the inbox
// shows it; "?" stands for an unknown phase.
func Label(workItem, phase string, iteration *int) string {
	if phase == "" {
		phase = "?"
	}
	if iteration != nil {
		phase += "-" + strconv.Itoa(*iteration)
	}
	return workItem + " · " + phase
}
