// Package review is sift's review vocabulary, shared by the store, the
// inbox (tui), the HTTP API and the commands: which session a reviewer
// looks at (SessionKey), how the inbox asks for sessions (Query, SortKey)
// and what it gets back (Session, Page), and what a reviewer records
// (Decision, DecisionKind). It also owns the meaning of the inbox's `/`
// filter (FilterMatches), so that every store answers it alike.
//
// It knows summaries and events, never SQL or terminals: the store
// implements the queries, the inbox draws their answers.
package review

// SessionKey identifies a session: one stream file of a work item.
type SessionKey struct {
	WorkItemID string
	FileName   string
}

// String returns the key as `<workItemId>/<fileName>`.
func (k SessionKey) String() string { return k.WorkItemID + "/" + k.FileName }

// IsZero reports whether the key names no session.
func (k SessionKey) IsZero() bool { return k.WorkItemID == "" && k.FileName == "" }
