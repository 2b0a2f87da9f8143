package store

import (
	"context"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store/pgtest"
)

// openTwo opens two stores on one fresh PostgreSQL database, as two
// machines would, the first holding one session.
func openTwo(t *testing.T) (a, b *Store) {
	t.Helper()
	dsn := pgtest.New(t)
	var err error
	if a, err = Open(dsn); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if b, err = Open(dsn); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	writeFakes(t, a, []fake{{wi: "wi", file: "a.jsonl", dur: 1}})
	return a, b
}

// listening returns the store's feed once it listens, and its count of
// notices.
func listening(t *testing.T, s *Store) (*pgFeed, uint64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	f := s.pgFeedOf(ctx)
	for {
		f.mu.Lock()
		up, n, wake := f.up, f.notices, f.wake
		f.mu.Unlock()
		if up {
			return f, n
		}
		select {
		case <-wake:
		case <-ctx.Done():
			t.Fatal("the change feed never listened")
		}
	}
}

// noticeCount returns how many notices the feed heard.
func (f *pgFeed) noticeCount() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.notices
}

// waitNotice waits (WaitChanged) until s's feed heard more than n
// notices, and returns the version it ended at.
func waitNotice(t *testing.T, s *Store, since, n uint64) uint64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for v := since; ; {
		var err error
		if v, err = s.WaitChanged(ctx, v); err != nil {
			t.Fatal(err)
		}
		if s.feed.noticeCount() > n {
			return v
		}
		if ctx.Err() != nil {
			t.Fatal("no notice reached the other store's feed")
		}
	}
}

// TestPostgresFeedWakesOtherStore: a decision made through one store
// wakes the change feed of another store on the same database by a
// notice (LISTEN/NOTIFY), not by a poll, and so does an import's batch;
// Changed then reports a new version.
func TestPostgresFeedWakesOtherStore(t *testing.T) {
	t.Parallel()
	a, b := openTwo(t)
	ctx := context.Background()
	f, n := listening(t, b)
	v0, err := b.Changed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v0&1 != 0 {
		t.Fatalf("version %d is the fallback's while the feed listens", v0)
	}
	if err := a.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"},
		Kind: review.Reviewed, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	v1 := waitNotice(t, b, v0, n)
	if v1 == v0 || v1&1 != 0 {
		t.Fatalf("after the decision the version is %d (was %d)", v1, v0)
	}
	if got, err := b.Changed(ctx); err != nil || got != v1 {
		t.Fatalf("Changed = %d, %v; WaitChanged said %d", got, err, v1)
	}
	n = f.noticeCount()
	writeFakes(t, a, []fake{{wi: "wi2", file: "b.jsonl", dur: 2}})
	waitNotice(t, b, v1, n)
}

// TestPostgresFeedReconnects: when the feed's connection is cut, the
// store falls back to polling and reports the change, reconnects, and
// notices wake it again.
func TestPostgresFeedReconnects(t *testing.T) {
	t.Parallel()
	a, b := openTwo(t)
	ctx := context.Background()
	_, n := listening(t, b)
	v0, err := b.Changed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var cut int
	if err := a.w.QueryRowContext(ctx, `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query = 'LISTEN `+feedChannel+`'`).Scan(&cut); err != nil || cut != 1 {
		t.Fatalf("cut %d listening connections: %v", cut, err)
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	v1, err := b.WaitChanged(wctx, v0)
	if err != nil || v1 == v0 {
		t.Fatalf("after the cut: version %d (was %d), %v", v1, v0, err)
	}
	listening(t, b)
	v2, err := b.Changed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"},
		Kind: review.Reviewed, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	waitNotice(t, b, v2, n)
}

// TestPostgresFeedStopsWithTheStore: after Close, Changed and WaitChanged
// return an error at once and start no feed again.
func TestPostgresFeedStopsWithTheStore(t *testing.T) {
	t.Parallel()
	for _, listened := range []bool{true, false} {
		s, err := Open(pgtest.New(t))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if listened {
			listening(t, s)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.WaitChanged(ctx, 0); err == nil {
			t.Errorf("listened %v: WaitChanged after Close returned no error", listened)
		}
		if _, up, _ := s.feed.state(); up {
			t.Errorf("listened %v: the feed listens after Close", listened)
		}
		select {
		case <-s.feed.done:
		default:
			t.Errorf("listened %v: a feed runs after Close", listened)
		}
	}
}
