package store

import (
	"context"
	"database/sql/driver"
	"slices"
	"testing"

	"github.com/agentsift/sift/core/review"
)

// TestMatchSetsAreReleased reads searches that gather a set of matches
// (every search with words, on SQLite) by every way the store reads them
// and checks that none is left held after. It is not parallel: the sets
// are the process's.
func TestMatchSetsAreReleased(t *testing.T) {
	sqliteOnly(t, "the sets are SQLite's")
	s := newTestStore(t)
	importFixtures(t, s, "ENG-1", "ENG-2")
	ctx := context.Background()
	s.forcePlan = alongSet
	q := review.Query{Search: "the agent:claude", Sort: review.SortTriage, Count: true, Limit: 2}
	page, err := s.ListSessions(ctx, q)
	if err != nil || len(page.Sessions) == 0 || page.Total == 0 {
		t.Fatalf("ListSessions: %d sessions of %d, %v", len(page.Sessions), page.Total, err)
	}
	if _, err := s.CountSessions(ctx, q); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Counts(ctx, review.Query{Search: "the", Undecided: true}); err != nil {
		t.Fatal(err)
	}
	held := 0
	matchSets.Range(func(any, any) bool { held++; return true })
	if held != 0 {
		t.Errorf("%d sets of matches still held", held)
	}
}

func TestMatchSet(t *testing.T) {
	t.Parallel()
	var s matchSet
	a := &matchSetAgg{set: s}
	for _, id := range []int64{1, 63, 64, 200, 200} {
		if err := a.Step(nil, []driver.Value{int64(7), id}); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := a.WindowValue(nil); n != int64(4) {
		t.Errorf("count %v, want 4 (200 twice counts once)", n)
	}
	for id, want := range map[int64]bool{0: false, 1: true, 2: false, 63: true, 64: true, 65: false, 200: true, 1 << 20: false, -1: false} {
		if got := a.set.has(id); got != want {
			t.Errorf("has(%d) = %v", id, got)
		}
	}
	if err := a.Step(nil, []driver.Value{int64(7), int64(-3)}); err == nil {
		t.Error("a negative id was gathered")
	}
}

// TestSearchWithoutASet: a store whose document ids pass a set's bound is
// searched without sets, and finds, orders and counts as with them. It
// is not parallel: it lowers the bound for the process.
func TestSearchWithoutASet(t *testing.T) {
	sqliteOnly(t, "the sets are SQLite's")
	s := newTestStore(t)
	importFixtures(t, s, "ENG-1", "ENG-2", "OPS-3")
	ctx := context.Background()
	s.forcePlan = alongSet
	q := review.Query{Search: "the agent:claude", Sort: review.SortTriage, Count: true, Limit: 3}
	with, err := s.ListSessions(ctx, q)
	if err != nil || with.Total < 3 {
		t.Fatalf("with sets: %d sessions (%v): a weak test", with.Total, err)
	}
	defer func(words int) { maxMatchSetWords = words }(maxMatchSetWords)
	maxMatchSetWords = 0 // every id is past it
	without, err := s.ListSessions(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	key := func(p review.Page) []string {
		var out []string
		for _, x := range p.Sessions {
			out = append(out, x.Key().String())
		}
		return out
	}
	if without.Total != with.Total || !slices.Equal(key(without), key(with)) {
		t.Errorf("without sets %v (total %d), with %v (total %d)", key(without), without.Total, key(with), with.Total)
	}
	held := 0
	matchSets.Range(func(any, any) bool { held++; return true })
	if held != 0 {
		t.Errorf("%d sets held", held)
	}
}

func TestMatchSetTooLarge(t *testing.T) {
	t.Parallel()
	a := &matchSetAgg{}
	for _, id := range []int64{5, int64(maxMatchSetWords) << 6} {
		if err := a.Step(nil, []driver.Value{int64(9), id}); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := a.WindowValue(nil); n != int64(-1) || a.set != nil {
		t.Errorf("a set past its bound: %v, %d words kept", n, len(a.set))
	}
}
