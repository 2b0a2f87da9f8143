package store

import (
	"fmt"
	"strings"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// noLimit is LIMIT's "no limit" that both backends take (SQLite's -1 is
// an error on PostgreSQL).
const noLimit = 1<<63 - 1

// sortColumn returns the indexed column a sort key orders by. SortTriage
// orders by triage_rank, then cost (sortOrder).
func sortColumn(k review.SortKey) (string, bool) {
	switch k {
	case "", review.SortStarted:
		return "sort_started", true
	case review.SortTriage:
		return "triage_rank", true
	case review.SortDuration:
		return "total_duration_ms", true
	case review.SortCost:
		return "estimated_usd", true
	case review.SortStalls:
		return "stall_count", true
	case review.SortErrors:
		return "error_count", true
	case review.SortApprovals:
		return "approval_count", true
	case review.SortTokens:
		return "total_tokens", true
	case review.SortOutcome:
		return "outcome_rank", true
	}
	return "", false
}

// orderTerm is one term of an order: an expression over the summary s and
// its direction.
type orderTerm struct {
	expr string
	desc bool
}

// orderTerms lists the terms of a query's order. Each order is one index
// read backwards or forwards, ending in the primary key so that pages are
// stable: the triage order is the index on (triage_rank, estimated_usd,
// work_item_id, file_name), largest first; sessions with as many stalls,
// errors or approvals, or of one outcome, follow their start, in the order's direction (the
// indexes hold sort_started for it).
func orderTerms(q review.Query) ([]orderTerm, error) { return orderTermsOf(q, "s") }

// orderTermsOf is orderTerms of the summary aliased as a.
func orderTermsOf(q review.Query, a string) ([]orderTerm, error) {
	col, ok := sortColumn(q.Sort)
	if !ok {
		return nil, fmt.Errorf("unknown sort %q", q.Sort)
	}
	desc := !q.Asc || q.Sort == review.SortTriage
	terms := []orderTerm{{a + "." + col, desc}}
	switch q.Sort {
	case review.SortTriage:
		terms = append(terms, orderTerm{a + ".estimated_usd", desc})
	case review.SortStalls, review.SortErrors, review.SortApprovals, review.SortOutcome:
		terms = append(terms, orderTerm{a + ".sort_started", desc})
	}
	return append(terms, orderTerm{a + ".work_item_id", desc}, orderTerm{a + ".file_name", desc}), nil
}

// orderBy returns the ORDER BY clause of a query (orderTerms). Grouping by
// work item keeps each work item's sessions together and orders the groups
// by their most urgent session, the first of theirs in the order: each
// group sorts by that session's terms (first_value over the window g of
// its work item), which no index answers: the rows are sorted.
func orderBy(q review.Query) (string, error) { return orderByOf(q, "s") }

// orderByOf is orderBy of the summary aliased as a.
func orderByOf(q review.Query, a string) (string, error) {
	terms, err := orderTermsOf(q, a)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	list := func(wrap func(string) string) {
		for i, t := range terms {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(wrap(t.expr))
			if t.desc {
				b.WriteString(" DESC NULLS LAST")
			} else {
				b.WriteString(" ASC NULLS FIRST")
			}
		}
	}
	plain := func(e string) string { return e }
	if q.GroupByWorkItem {
		b.WriteString(" WINDOW g AS (PARTITION BY " + a + ".work_item_id ORDER BY ")
		list(plain)
		b.WriteString(") ORDER BY ")
		list(func(e string) string { return "first_value(" + e + ") OVER g" })
		b.WriteString(", ")
	} else {
		b.WriteString(" ORDER BY ")
	}
	list(plain)
	return b.String(), nil
}

// sortIndex is the index that holds a sort key's order (orderBy).
func sortIndex(k review.SortKey) string {
	if k == "" {
		k = review.SortStarted
	}
	return "summaries_by_" + string(k)
}

// where builds the WHERE clause of a query's filters and its search's
// filters (sq, nil for none; its words are the search's read plan's, in
// search_query.go). It refers to the summary as s and, for the undecided
// filter, to its session-level decision pointer as l (sessionFrom).
func where(d dialect, q review.Query, sq *search.Query) (string, []any) {
	conds, args := whereConds(d, q, sq)
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// whereConds are where's conditions.
func whereConds(d dialect, q review.Query, sq *search.Query) ([]string, []any) {
	var conds []string
	var args []any
	if q.Flagged {
		conds = append(conds, flaggedSQL)
	}
	if q.Undecided {
		conds = append(conds, `s.review_state = ''`)
	}
	if q.Agent != "" {
		conds = append(conds, "s.agent_kind = ?")
		args = append(args, q.Agent)
	}
	if q.WorkItem != "" {
		conds = append(conds, "s.work_item_id = ?")
		args = append(args, q.WorkItem)
	}
	if !q.Since.IsZero() {
		conds = append(conds, "s.activity_at >= ?")
		args = append(args, q.Since.UnixMilli())
	}
	if q.Text != "" {
		pattern := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q.Text) + "%"
		like := " " + d.like() + ` ? ESCAPE '\'`
		conds = append(conds, `(s.work_item_id`+like+` OR s.file_name`+like+`
			OR s.model`+like+` OR s.session_id`+like+` OR s.final_assistant_message`+like+`)`)
		args = append(args, pattern, pattern, pattern, pattern, pattern)
	}
	if sq != nil {
		c, a := searchConds(d, sq)
		conds = append(conds, c...)
		args = append(args, a...)
	}
	return conds, args
}

// decidedJoin joins a summary s to the pointer l to its session-level
// decision (null when undecided).
const decidedJoin = `
	LEFT JOIN decision_latest l ON l.work_item_id = s.work_item_id AND l.file_name = s.file_name
		AND l.turn_id = '' AND l.tool_call_id = ''`

// decidedFrom joins each summary s to its session-level decision pointer
// l.
const decidedFrom = ` FROM agent_stream_summaries s` + decidedJoin

// sessionFrom joins each summary to its session-level decision d.
const sessionFrom = decidedFrom + `
	LEFT JOIN review_decisions d ON d.id = l.decision_id`

// countFrom is the FROM clause of a count.
const countFrom = " FROM agent_stream_summaries s"
