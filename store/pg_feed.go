package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// On PostgreSQL the store learns of other writers' changes by push: every
// write to what the inbox shows notifies the channel sift_changed in its
// transaction (migrations/0017_feed_words.pg.sql), and the store's change feed listens on
// a connection of its own. Changed then returns the feed's count of
// notices, read without asking the server, and WaitChanged returns as
// soon as a notice arrives. While the feed's connection is down (the
// server restarting, the network gone) the feed reconnects with backoff
// and Changed falls back to polling the server's WAL position, as before
// the feed; the first notice after a reconnection is the reconnection
// itself, since writes may have been missed while it was down.

// feedChannel is the channel the writers notify.
const feedChannel = "sift_changed"

// The feed's reconnection backoff: from feedMinBackoff, doubling, to
// feedMaxBackoff.
const (
	feedMinBackoff = 250 * time.Millisecond
	feedMaxBackoff = 30 * time.Second
)

// feedStartWait is how long the first Changed waits for the feed to
// listen: long enough for a server that answers, so that the inbox's
// first version is the feed's and not the fallback's, short enough that
// an unreachable server costs the fallback one poll.
const feedStartWait = 2 * time.Second

// pgFeed is the change feed of a PostgreSQL store: a connection that
// LISTENs to feedChannel, and the count of what it heard.
type pgFeed struct {
	cfg    *pgx.ConnConfig
	cancel context.CancelFunc
	done   chan struct{}

	mu sync.Mutex
	// up is set while the connection listens.
	up bool
	// n counts the notices heard and the (re)connections.
	n uint64
	// wake is closed, and replaced, at every notice and every change of
	// up: WaitChanged waits on it.
	wake chan struct{}
	// notices counts the notices alone (tests read it).
	notices uint64
}

// startFeed starts listening on a new connection of cfg's.
func startFeed(cfg *pgx.ConnConfig) *pgFeed {
	ctx, cancel := context.WithCancel(context.Background())
	f := &pgFeed{cfg: cfg, cancel: cancel, done: make(chan struct{}), wake: make(chan struct{})}
	go f.run(ctx)
	return f
}

// stoppedFeed returns a feed that is down and stopped: a closed store's,
// when it never started one.
func stoppedFeed() *pgFeed {
	f := &pgFeed{cancel: func() {}, done: make(chan struct{}), wake: make(chan struct{})}
	close(f.done)
	return f
}

// run keeps the feed listening until the store closes.
func (f *pgFeed) run(ctx context.Context) {
	defer close(f.done)
	wait := feedMinBackoff
	for {
		listened := f.listen(ctx)
		f.set(false, false)
		if listened {
			wait = feedMinBackoff
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, feedMaxBackoff)
	}
}

// listen connects, listens and counts notices until the connection
// fails or ctx ends; it reports whether it got as far as listening.
func (f *pgFeed) listen(ctx context.Context) bool {
	conn, err := pgx.ConnectConfig(ctx, f.cfg)
	if err != nil {
		return false
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+feedChannel); err != nil {
		return false
	}
	f.set(true, false)
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return true
		}
		f.set(true, true)
	}
}

// set records the connection's state, or a notice, and wakes the
// waiters.
func (f *pgFeed) set(up, notice bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !notice && up == f.up {
		return
	}
	f.up = up
	f.n++
	if notice {
		f.notices++
	}
	close(f.wake)
	f.wake = make(chan struct{})
}

// state returns the feed's version (valid while up) and the channel the
// next change closes.
func (f *pgFeed) state() (v uint64, up bool, wake <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n, f.up, f.wake
}

// close stops the feed and waits for its connection to close.
func (f *pgFeed) close() {
	f.cancel()
	<-f.done
}

// pgFeedOf returns the store's feed, starting it at the first call and
// waiting up to feedStartWait (or ctx) for it to listen. A closed store's
// feed is stopped and stays so: it is never started again.
func (s *Store) pgFeedOf(ctx context.Context) *pgFeed {
	s.verMu.Lock()
	f := s.feed
	if f == nil {
		f = startFeed(s.pgCfg.Copy())
		s.feed = f
	}
	s.verMu.Unlock()
	_, up, wake := f.state()
	if up {
		return f
	}
	t := time.NewTimer(feedStartWait)
	defer t.Stop()
	select {
	case <-wake:
	case <-t.C:
	case <-ctx.Done():
	case <-f.done:
		// The store is closed: its feed stays down.
	}
	return f
}

// pgChanged is Changed on PostgreSQL: the feed's count while it listens,
// else the server's WAL insert position, which a commit always moves
// past (it moves with writes to the server's other databases and its own
// upkeep too, which cost a reload that finds nothing new, never a change
// missed). The two are told apart by the lowest bit, so that moving from
// one to the other is a change.
func (s *Store) pgChanged(ctx context.Context) (uint64, error) {
	if v, up, _ := s.pgFeedOf(ctx).state(); up {
		return v << 1, nil
	}
	return s.walPosition(ctx)
}

// walPosition returns the server's WAL insert position, as pgChanged
// reports it.
func (s *Store) walPosition(ctx context.Context) (uint64, error) {
	var v int64
	if err := s.r.QueryRowContext(ctx, `SELECT (pg_current_wal_insert_lsn() - '0/0')::bigint`).Scan(&v); err != nil {
		return 0, wrapError(err)
	}
	return uint64(v)<<1 | 1, nil
}

// WaitChanged returns the data version (Changed) once it differs from
// since, or when ctx ends. On PostgreSQL it returns when the change feed
// hears of a write, without polling; while the feed is down, and on
// SQLite, it polls Changed every pollInterval. An error of Changed is
// returned at once.
func (s *Store) WaitChanged(ctx context.Context, since uint64) (uint64, error) {
	for {
		v, err := s.Changed(ctx)
		if err != nil || v != since {
			return v, err
		}
		wake, listening := s.d.wake(ctx, s)
		if listening {
			// Listening: no poll, the next notice wakes it.
			select {
			case <-wake:
				continue
			case <-ctx.Done():
				return v, nil
			}
		}
		t := time.NewTimer(pollInterval)
		select {
		case <-t.C:
		case <-wake:
			t.Stop()
		case <-ctx.Done():
			t.Stop()
			return v, nil
		}
	}
}

// pollInterval is how often WaitChanged polls where nothing is pushed.
const pollInterval = time.Second

// changed is Changed on PostgreSQL: the feed's count of notices.
func (pgDialect) changed(ctx context.Context, s *Store) (uint64, error) {
	v, err := s.pgChanged(ctx)
	if err != nil {
		return 0, fmt.Errorf("data version: %w", err)
	}
	return v, nil
}

// stopFeed leaves a stopped feed on a store whose feed never started: a
// Changed after Close falls back to the closed pool and returns its
// error.
func (pgDialect) stopFeed(s *Store) { s.feed = stoppedFeed() }

// wake is the feed's: while it listens, a notice wakes WaitChanged.
func (pgDialect) wake(ctx context.Context, s *Store) (<-chan struct{}, bool) {
	_, up, wake := s.pgFeedOf(ctx).state()
	return wake, up
}
