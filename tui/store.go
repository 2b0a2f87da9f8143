package tui

import (
	"context"
	"time"

	"github.com/agentsift/sift/core/summary"
)

// Store is what the inbox needs from sift's store. It is declared here, by
// its user, and kept small; cmd/sift adapts the real store to it.
type Store interface {
	// ListSessions returns one page of sessions in the query's order, with
	// the list fields of their summaries (turns and tool calls may be
	// left out) and how many sessions the query matches.
	ListSessions(ctx context.Context, q Query) (Page, error)
	// Counts returns how many of the sessions a query matches are flagged
	// and how many have no decision. The inbox asks for them after it has
	// drawn the first page: on a large store they cost more than a page.
	Counts(ctx context.Context, q Query) (flagged, undecided int, err error)
	// GetSession returns one session with its whole summary.
	GetSession(ctx context.Context, k SessionKey) (Session, error)
	// Decide records a decision.
	Decide(ctx context.Context, d Decision) error
	// Decisions returns every decision on a session, its turns and its
	// tool calls, oldest first.
	Decisions(ctx context.Context, k SessionKey) ([]Decision, error)
}

// SessionKey identifies a session: one stream file of a work item.
type SessionKey struct {
	WorkItemID string
	FileName   string
}

// String returns the key as work item and file name.
func (k SessionKey) String() string { return k.WorkItemID + "/" + k.FileName }

// SortKey is a column the inbox sorts by.
type SortKey string

// The sort keys. SortTriage is the default order: flagged and undecided
// sessions first, then by cost.
const (
	SortTriage    SortKey = "triage"
	SortStarted   SortKey = "started"
	SortDuration  SortKey = "duration"
	SortCost      SortKey = "cost"
	SortTokens    SortKey = "tokens"
	SortStalls    SortKey = "stalls"
	SortErrors    SortKey = "errors"
	SortApprovals SortKey = "approvals"
)

// sortKeys lists the sort keys in the order `s` cycles through them.
func sortKeys() []SortKey {
	return []SortKey{SortTriage, SortCost, SortDuration, SortStalls, SortErrors, SortApprovals, SortTokens, SortStarted}
}

// Query selects and orders a page of sessions.
type Query struct {
	Sort SortKey
	// Desc sorts largest (or newest) first. SortTriage ignores it.
	Desc bool
	// FlaggedOnly and UndecidedOnly are the quick filters; Agent keeps
	// one agent kind when set.
	FlaggedOnly   bool
	UndecidedOnly bool
	Agent         string
	// Filter is a fuzzy filter over agent, work item, tool names and the
	// final message: its characters must appear in that order.
	Filter string
	// GroupByWorkItem orders by work item first, then by Sort.
	GroupByWorkItem bool
	Limit, Offset   int
}

// Session is one session as the inbox shows it.
type Session struct {
	summary.Summary
	// Path is the stream file, for re-parsing the detail; empty when the
	// store does not know it.
	Path string
	// Cwd is the working directory `sift run` recorded for the run that
	// wrote the stream; empty when unknown (an imported file, an agent's
	// history). The stream's own cwd is never used: it is untrusted text.
	Cwd string
}

// Key returns the session's key.
func (s Session) Key() SessionKey {
	return SessionKey{WorkItemID: s.WorkItemID, FileName: s.FileName}
}

// Page is one page of a query's result.
type Page struct {
	Sessions []Session
	// Total counts the sessions the query matches.
	Total int
}

// The decisions a reviewer records.
const (
	DecisionReviewed  = "reviewed"
	DecisionFollowup  = "needs_followup"
	DecisionIgnored   = "ignored"
	defaultReviewerID = "tui"
)

// Decision is a reviewer's decision on a session, or on one of its turns
// or tool calls.
type Decision struct {
	Session    SessionKey
	TurnID     string
	ToolCallID string
	Decision   string
	Note       string
	Reviewer   string
	CreatedAt  time.Time
}
