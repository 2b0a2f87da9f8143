package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/agentsift/sift/core/review"
)

// Locate returns the index of a session in a query's order (its offset
// from the first session the query selects), or -1 when the query does
// not select it: the inbox keeps its selection through a change of order
// by asking where the selected session went. It counts the sessions the
// query selects that come before it in the order (orderTerms); a grouped
// order, which windows decide, reads the keys in order up to it.
func (s *Store) Locate(ctx context.Context, q review.Query, k review.SessionKey) (int, error) {
	if q.Search != "" {
		return s.locateInSearch(ctx, q, k)
	}
	if q.GroupByWorkItem {
		return s.locateByScan(ctx, q, k)
	}
	terms, err := orderTerms(q)
	if err != nil {
		return 0, fmt.Errorf("locate: %w", err)
	}
	where, args := where(s.d, q, nil)
	and := " WHERE "
	if where != "" {
		and = where + " AND "
	}
	exprs := make([]string, len(terms))
	for i, t := range terms {
		exprs[i] = t.expr
	}
	vals := make([]any, len(terms))
	ptrs := make([]any, len(terms))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	err = s.r.QueryRowContext(ctx, "SELECT "+strings.Join(exprs, ", ")+countFrom+and+"s.work_item_id = ? AND s.file_name = ?",
		append(append([]any{}, args...), k.WorkItemID, k.FileName)...).Scan(ptrs...)
	if err == sql.ErrNoRows {
		return -1, nil
	}
	if err != nil {
		return 0, fmt.Errorf("locate: %w", wrapError(err))
	}
	for i, v := range vals {
		if b, ok := v.([]byte); ok {
			// A text key compared as a blob would sort after every text.
			vals[i] = string(b)
		}
	}
	// One count per part: each is a seek on the order's index (its
	// equal prefix, then a range), where one condition ORing the parts
	// would scan the index.
	var sels []string
	var all []any
	for _, p := range precedes(terms, vals) {
		sels = append(sels, "(SELECT COUNT(*)"+countFrom+and+p.cond+")")
		all = append(append(all, args...), p.args...)
	}
	var n int
	if err := s.r.QueryRowContext(ctx, "SELECT "+strings.Join(sels, " + "), all...).Scan(&n); err != nil {
		return 0, fmt.Errorf("locate: %w", wrapError(err))
	}
	return n, nil
}

// cond is a condition with its arguments.
type cond struct {
	cond string
	args []any
}

// precedes splits the rows that come before the one whose terms' values
// are vals, in the order of the terms (unknown, NULL, values the smallest
// as in ORDER BY), into disjoint parts: for each term, the rows equal to
// it on the terms before and before it on this one.
func precedes(terms []orderTerm, vals []any) []cond {
	var out []cond
	var eq []string
	var eqArgs []any
	for i, t := range terms {
		v := vals[i]
		var befores []cond
		switch {
		case v == nil && t.desc:
			befores = []cond{{t.expr + " IS NOT NULL", nil}}
		case v == nil:
		case t.desc:
			befores = []cond{{t.expr + " > ?", []any{v}}}
		default:
			befores = []cond{{t.expr + " < ?", []any{v}}, {t.expr + " IS NULL", nil}}
		}
		for _, b := range befores {
			c := strings.Join(append(append([]string{}, eq...), b.cond), " AND ")
			out = append(out, cond{c, append(append([]any{}, eqArgs...), b.args...)})
		}
		if v == nil {
			eq = append(eq, t.expr+" IS NULL")
		} else {
			eq = append(eq, t.expr+" = ?")
			eqArgs = append(eqArgs, v)
		}
	}
	return out
}

// locateByScan is Locate reading the keys in the query's order up to the
// session: it costs the session's index.
func (s *Store) locateByScan(ctx context.Context, q review.Query, k review.SessionKey) (int, error) {
	order, err := orderBy(q)
	if err != nil {
		return 0, fmt.Errorf("locate: %w", err)
	}
	where, args := where(s.d, q, nil)
	rows, err := s.r.QueryContext(ctx, "SELECT s.work_item_id, s.file_name"+countFrom+where+order, args...)
	if err != nil {
		return 0, fmt.Errorf("locate: %w", wrapError(err))
	}
	defer rows.Close()
	var wi, fn sql.RawBytes
	for i := 0; rows.Next(); i++ {
		if err := rows.Scan(&wi, &fn); err != nil {
			return 0, fmt.Errorf("locate: %w", err)
		}
		if string(fn) == k.FileName && string(wi) == k.WorkItemID {
			return i, nil
		}
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("locate: %w", wrapError(err))
	}
	return -1, nil
}

// groupTotals adds up, for each of the work items, the sessions of it a
// query selects: how many, flagged, undecided, and their known cost.
func (s *Store) groupTotals(ctx context.Context, q review.Query, workItems []string) (map[string]review.GroupTotals, error) {
	out := map[string]review.GroupTotals{}
	if len(workItems) == 0 {
		return out, nil
	}
	where, args := where(s.d, q, nil)
	in := "s.work_item_id IN (?" + strings.Repeat(", ?", len(workItems)-1) + ")"
	if where == "" {
		where = " WHERE " + in
	} else {
		where += " AND " + in
	}
	for _, wi := range workItems {
		args = append(args, wi)
	}
	rows, err := s.r.QueryContext(ctx, "SELECT s.work_item_id, COUNT(*), "+countOf(flaggedSQL)+", "+countOf("s.review_state = ''")+", SUM(s.estimated_usd)"+
		countFrom+where+" GROUP BY s.work_item_id", args...)
	if err != nil {
		return nil, fmt.Errorf("group totals: %w", wrapError(err))
	}
	defer rows.Close()
	for rows.Next() {
		var wi string
		var g review.GroupTotals
		var usd sql.NullFloat64
		if err := rows.Scan(&wi, &g.Sessions, &g.Flagged, &g.Undecided, &usd); err != nil {
			return nil, fmt.Errorf("group totals: %w", err)
		}
		if usd.Valid {
			g.USD = &usd.Float64
		}
		out[wi] = g
	}
	return out, wrapError(rows.Err())
}

// locateInSearch is Locate for a query with a search, whose order its own
// plans read (search_read.go): it reads the query's pages up to the
// session.
func (s *Store) locateInSearch(ctx context.Context, q review.Query, k review.SessionKey) (int, error) {
	const page = 1000
	q.Count, q.Full, q.Decisions, q.Offset, q.Limit = false, false, false, 0, page
	for {
		p, err := s.ListSessions(ctx, q)
		if err != nil {
			return 0, fmt.Errorf("locate: %w", err)
		}
		for i := range p.Sessions {
			if p.Sessions[i].Key() == k {
				return q.Offset + i, nil
			}
		}
		if len(p.Sessions) < page {
			return -1, nil
		}
		q.Offset += page
	}
}
