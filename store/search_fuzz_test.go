package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// searchSeeds are the queries Hardening II found costly or failing: FTS
// syntax, unbalanced quotes, repeats, overlong words, many filters.
func searchSeeds() []string {
	var filters []string
	for i := range 1500 {
		filters = append(filters, fmt.Sprintf("agent:a%d", i))
	}
	return []string{`"`, `((((`, `-`, `--`, strings.Repeat("a* ", 200), strings.Repeat("z", 3000), strings.Join(filters, " "),
		`NEAR(a b)`, `*`, `^x`, `body:x`, `parts:x`, `"a" "`, "a\x00b", "\xff\xfe", `a OR b`, `-"x`, `since:999999d`,
		`cost>1e308`, `cost<-1`, `"npm test" -flaky agent:claude timeout*`, `mine`, `by:ana`, `ab* ab* ab*`}
}

// FuzzSearchQuery runs any query on a real store holding recorded
// sessions (SQLite here; TestSearchQueryNasty runs the seeds on both
// backends): each gives sessions and their matches, or a search.ParseError
// naming what is wrong; never an SQL or FTS error, a panic or the search
// deadline.
func FuzzSearchQuery(f *testing.F) {
	for _, s := range searchSeeds() {
		f.Add(s)
	}
	s := newTestStore(f)
	importFixtures(f, s, "wi-a")
	f.Fuzz(func(t *testing.T, query string) {
		checkSearch(t, s, query)
	})
}

// TestSearchQueryNasty runs the fuzz seeds as a table, on both backends.
func TestSearchQueryNasty(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	importFixtures(t, s, "wi-a")
	for _, q := range searchSeeds() {
		checkSearch(t, s, q)
	}
}

// checkSearch lists, counts and matches one query.
func checkSearch(t *testing.T, s *Store, query string) {
	t.Helper()
	ctx := context.Background()
	q := review.Query{Search: query, Limit: 20}
	page, err := s.ListSessions(ctx, q)
	if err == nil {
		_, err = s.Counts(ctx, q)
	}
	for i := 0; err == nil && i < len(page.Sessions); i++ {
		_, err = s.Matches(ctx, page.Sessions[i].Key(), q, 200)
	}
	var pe *search.ParseError
	switch {
	case err == nil:
	case errors.Is(err, search.ErrTooSlow):
		t.Fatalf("%.60q ran past the search deadline", query)
	case !errors.As(err, &pe):
		t.Fatalf("%.60q: %v, want results or a search.ParseError", query, err)
	}
}
