package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"modernc.org/sqlite"
)

// A search with many matches (SQLite) reads them once, into a set of
// document ids held in Go, and counts them in the same pass: its page is
// then a walk along the order's index, each session looked up in the
// set. The full-text index did the same work twice before: once to count
// the matches, once to check the sessions walked (a probe of the index
// per session, or an in-memory index of the matches built by SQLite).
//
// SQL functions on the sets:
//
//   - sift_match_set(handle, id) is an aggregate: it gathers the ids of
//     its rows into the set named by handle (a number from newMatchSet)
//     and is their count;
//   - sift_in_match_set(handle, id) is whether the set named by handle
//     holds id (false for a set that was never gathered: no rows).
func init() {
	sqlite.MustRegisterFunction("sift_match_set", &sqlite.FunctionImpl{
		NArgs: 2,
		MakeAggregate: func(sqlite.FunctionContext) (sqlite.AggregateFunction, error) {
			return &matchSetAgg{}, nil
		},
	})
	sqlite.MustRegisterFunction("sift_in_match_set", &sqlite.FunctionImpl{NArgs: 2, Scalar: inMatchSetFunc})
}

// matchSet is a set of document ids, a bit per id.
type matchSet []uint64

func (s matchSet) has(id int64) bool {
	w := id >> 6
	return id >= 0 && w < int64(len(s)) && s[w]&(1<<(id&63)) != 0
}

// matchSets holds the sets gathered and not yet released, by handle.
var (
	matchSets    sync.Map
	matchHandles atomic.Int64
)

// newMatchSet returns the handle of a set to gather.
func newMatchSet() int64 { return matchHandles.Add(1) }

// releaseMatchSet forgets a set, gathered or not.
func releaseMatchSet(h int64) { matchSets.Delete(h) }

var errMatchSetArgs = errors.New("sift_match_set: want (handle, id) integers")

// maxMatchSetWords bounds a set's bits (2^30 ids in 128 MB): a store
// whose ids pass it (none that sift made: its ids count its documents)
// is searched without sets rather than made to allocate for them. A
// variable for TestSearchWithoutASet.
var maxMatchSetWords = 1 << 24

// matchSetAgg gathers one set; past maxMatchSetWords it gathers nothing
// more and is -1 (too large).
type matchSetAgg struct {
	handle   int64
	set      matchSet
	n        int64
	tooLarge bool
}

func (a *matchSetAgg) Step(_ *sqlite.FunctionContext, args []driver.Value) error {
	h, ok1 := args[0].(int64)
	id, ok2 := args[1].(int64)
	if !ok1 || !ok2 || id < 0 {
		return errMatchSetArgs
	}
	a.handle = h
	if a.tooLarge || id>>6 >= int64(maxMatchSetWords) {
		a.tooLarge, a.set = true, nil
		return nil
	}
	w := int(id >> 6)
	if w >= len(a.set) {
		// Ids come in ascending order from the full-text index: the
		// set grows as it would by append.
		a.set = slices.Grow(a.set, w+1-len(a.set))[:w+1]
	}
	if a.set[w]&(1<<(id&63)) == 0 {
		a.set[w] |= 1 << (id & 63)
		a.n++
	}
	return nil
}

func (a *matchSetAgg) WindowInverse(*sqlite.FunctionContext, []driver.Value) error {
	return errors.New("sift_match_set is not a window function")
}

func (a *matchSetAgg) WindowValue(*sqlite.FunctionContext) (driver.Value, error) {
	if a.tooLarge {
		return int64(-1), nil
	}
	return a.n, nil
}

func (a *matchSetAgg) Final(*sqlite.FunctionContext) {
	if a.handle != 0 && !a.tooLarge {
		matchSets.Store(a.handle, a.set)
	}
}

func inMatchSetFunc(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	h, ok1 := args[0].(int64)
	id, ok2 := args[1].(int64)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("sift_in_match_set: want (handle, id) integers")
	}
	v, ok := matchSets.Load(h)
	return ok && v.(matchSet).has(id), nil
}

// gatherMatchSet runs a query whose one column is
// COALESCE(sift_match_set(?, id), 0) (the handle its first argument) and
// returns the set's handle and its count, -1 for a set too large to
// gather (then no handle). The caller releases the handle.
func gatherMatchSet(ctx context.Context, q rowQuerier, query string, args ...any) (int64, int, error) {
	h := newMatchSet()
	var n int64
	if err := q.QueryRowContext(ctx, query, append([]any{h}, args...)...).Scan(&n); err != nil {
		releaseMatchSet(h)
		return 0, 0, err
	}
	if n < 0 {
		releaseMatchSet(h)
		return 0, -1, nil
	}
	return h, int(n), nil
}
