package review

import "time"

// SortKey is an order of the inbox.
type SortKey string

// The sort keys. SortTriage is the inbox's default order, worst first
// (TriageFacts): a run waiting for approval, then the undecided failed,
// died and interrupted runs, then the undecided flagged sessions (flagged
// by the summary, or by an open needs_followup on the session, a turn or
// a tool call), then the rest; captured runs before history sessions,
// unknown costs before known ones, then by cost. It has no direction. The
// others order by one figure of the summary.
const (
	SortTriage    SortKey = "triage"
	SortStarted   SortKey = "started"
	SortDuration  SortKey = "duration"
	SortCost      SortKey = "cost"
	SortTokens    SortKey = "tokens"
	SortStalls    SortKey = "stalls"
	SortErrors    SortKey = "errors"
	SortApprovals SortKey = "approvals"
	// SortOutcome orders by the outcome's urgency (summary.Outcome.Rank):
	// failed, died_before_start, interrupted, unknown, completed.
	SortOutcome SortKey = "outcome"
)

// SortKeys lists the sort keys in their one order: the inbox's keys 0 to
// 8 (0 is triage), the order its `s` key cycles through, and the order
// `sift list` and the API name them in.
func SortKeys() []SortKey {
	return []SortKey{SortTriage, SortStarted, SortDuration, SortCost, SortTokens, SortStalls, SortErrors, SortApprovals, SortOutcome}
}

// Query selects, orders and pages sessions. The zero Query lists every
// session, newest first.
type Query struct {
	// Sort is the order, largest (or newest) first unless Asc; empty means
	// SortStarted. Unknown values (null) sort as the smallest; ties fall
	// back to the session key. SortTriage ignores Asc. SortStarted places
	// a session without a known start at its last activity.
	Sort SortKey
	Asc  bool
	// Flagged keeps flagged sessions: those with a flag, or with an open
	// needs_followup decision on the session or one of its turns or tool
	// calls.
	Flagged bool
	// Undecided keeps sessions with no session-level decision.
	Undecided bool
	// Agent and WorkItem keep one agent kind and one work item.
	Agent    string
	WorkItem string
	// Since keeps sessions active at or after this time.
	Since time.Time
	// Text keeps sessions whose work item, file name, model, harness
	// session id or final message contains it (case-insensitive for
	// ASCII): `sift list --text` and the API's text parameter.
	Text string
	// Search is a search in core/search's query language (words,
	// "phrases", -exclusions, field filters such as agent:codex or
	// cost>0.5): the inbox's `/`, `sift search` and the API's search. It
	// keeps the sessions whose indexed text has every word and phrase,
	// none excluded, and whose fields pass every filter.
	Search string
	// Typing is set while Search is being typed (the inbox's `/`): its
	// last word matches any word it starts, and a filter left incomplete
	// there is ignored (search.Options.Typing).
	Typing bool
	// Reviewer is the reviewer searching: who the search's filter mine
	// means (search.Options.Reviewer).
	Reviewer string
	// GroupByWorkItem keeps each work item's sessions together, in Sort's
	// order, and orders the groups by their most urgent session: the one
	// of theirs that comes first in Sort's order. Page.Groups has each
	// listed group's totals.
	GroupByWorkItem bool
	// Limit caps the rows (0: no cap); Offset skips rows.
	Limit, Offset int
	// Count also counts every session the query selects (Page.Total), as
	// the inbox does for its title; a list that only pages leaves it off.
	Count bool
	// Full also loads tool calls, stalls and turns, and the current turn
	// and tool-call decisions; without it the lists are nil.
	Full bool
	// Decisions loads the current turn and tool-call decisions
	// (Session.Decisions) without the lists.
	Decisions bool
}

// Page is one page of a query's answer.
type Page struct {
	Sessions []Session
	// Total counts the sessions the query selects, before paging, when
	// the query asked for it (Query.Count); else it is 0.
	Total int
	// Groups holds, for a grouped query (Query.GroupByWorkItem), the
	// totals of each work item the page lists, over every session of it
	// the query selects (not only the page's); nil otherwise.
	Groups map[string]GroupTotals
}

// Counts are the figures of the sessions a query selects, all read at
// one moment: how many, how many flagged, how many undecided, how many
// left to review.
type Counts struct {
	Total, Flagged, Undecided int
	// ToReview counts the sessions both flagged and undecided: those left
	// to review.
	ToReview int
}

// GroupTotals are the figures of the sessions of one work item a query
// selects.
type GroupTotals struct {
	Sessions  int
	Flagged   int
	Undecided int
	// USD adds the known costs; nil when none is known.
	USD *float64
}
