package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/review"
)

// pageRows returns the sessions of a page: the rows of a list, for tests
// that read them without the total.
func pageRows(p review.Page, err error) ([]review.Session, error) { return p.Sessions, err }

// queryPlan returns SQLite's plan for a query, its steps joined by "; ".
func queryPlan(t *testing.T, s *Store, query string, args ...any) string {
	t.Helper()
	rows, err := s.r.Query("EXPLAIN QUERY PLAN "+query, args...)
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

// importFixtures imports every fixture stream, the work items given in
// turn, and returns the stored sessions whole.
func importFixtures(t testing.TB, s *Store, workItems ...string) []review.Session {
	t.Helper()
	root := t.TempDir()
	for i, f := range fixtureFiles(t) {
		copyFile(t, f, filepath.Join(root, workItems[i%len(workItems)], filepath.Base(filepath.Dir(f))+"-"+filepath.Base(f)))
	}
	mustImport(t, s, root)
	full, err := pageRows(s.ListSessions(context.Background(), review.Query{Full: true}))
	if err != nil {
		t.Fatal(err)
	}
	return full
}
