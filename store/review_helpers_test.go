package store

import (
	"testing"

	"github.com/agentsift/sift/core/review"
)

// pageRows returns the sessions of a page: the rows of a list, for tests
// that read them without the total.
func pageRows(p review.Page, err error) ([]review.Session, error) { return p.Sessions, err }

// queryPlan returns SQLite's plan for a query, its steps joined by "; ".
func queryPlan(t *testing.T, s *Store, query string) string {
	t.Helper()
	rows, err := s.r.Query("EXPLAIN QUERY PLAN " + query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan += detail + "; "
	}
	return plan
}
