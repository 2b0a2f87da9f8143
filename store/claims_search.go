package store

import (
	"strings"

	"github.com/agentsift/sift/core/search"
)

// liveClaimSQL is true for a summary s that a live claim holds; its one
// argument is the time claims are judged at (unix ms).
const liveClaimSQL = `SELECT 1 FROM review_claims c WHERE c.work_item_id = s.work_item_id AND c.file_name = s.file_name
	AND c.expires_at > ?`

// heldBySQL is true for a summary s that a reviewer (the second
// argument) claims, live at the first, or holds a current decision on
// (the session's, a turn's or a tool call's).
const heldBySQL = `(EXISTS (` + liveClaimSQL + ` AND lower(c.reviewer_id) = ?)
	OR EXISTS (SELECT 1 FROM decision_latest x JOIN review_decisions d ON d.id = x.decision_id
		WHERE x.work_item_id = s.work_item_id AND x.file_name = s.file_name AND lower(d.reviewer_id) = ?))`

// teamCond is the condition of a team filter (core/search's team.go) on a
// summary s: mine, unclaimed, by:NAME. ok is false for any other filter.
// Reviewer ids compare without case, as the other filters' values do.
func teamCond(f search.Filter) (cond string, args []any, ok bool) {
	at := f.ClaimsAt().UnixMilli()
	switch f.Field {
	case search.FieldMine, search.FieldBy:
		who := strings.ToLower(f.Value)
		return heldBySQL, []any{at, who, who}, true
	case search.FieldUnclaimed:
		return `NOT EXISTS (` + liveClaimSQL + `)`, []any{at}, true
	}
	return "", nil, false
}
