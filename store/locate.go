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
// by asking where the selected session went. It reads the keys in the
// query's own order (the ORDER BY of ListSessions) up to the session, so
// it costs its index, at most the query's size.
func (s *Store) Locate(ctx context.Context, q review.Query, k review.SessionKey) (int, error) {
	order, err := orderBy(q)
	if err != nil {
		return 0, fmt.Errorf("locate: %w", err)
	}
	where, args := where(q)
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
	where, args := where(q)
	in := "s.work_item_id IN (?" + strings.Repeat(", ?", len(workItems)-1) + ")"
	if where == "" {
		where = " WHERE " + in
	} else {
		where += " AND " + in
	}
	for _, wi := range workItems {
		args = append(args, wi)
	}
	rows, err := s.r.QueryContext(ctx, "SELECT s.work_item_id, COUNT(*), SUM("+flaggedSQL+"), SUM(s.review_state = ''), SUM(s.estimated_usd)"+
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
