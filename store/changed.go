package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Changed returns the database's data version as one connection sees it
// (PRAGMA data_version): it changes whenever another connection, of this
// process or any other, commits a write. A caller that polls it sees
// writes by other processes (an import, a decision, a running `sift run`)
// without reading anything else. The pragma is per connection, so the
// store keeps one connection of its own pinned for it, opened at the
// first call; the value means nothing across connections, only its
// changes do.
//
// On PostgreSQL it is the count of the change feed's notices, pushed by
// the writers' transactions, and while the feed is down the server's WAL
// position (pg_feed.go).
func (s *Store) Changed(ctx context.Context) (uint64, error) { return s.d.changed(ctx, s) }

// changed is Changed on SQLite.
func (sqliteDialect) changed(ctx context.Context, s *Store) (uint64, error) {
	s.verMu.Lock()
	defer s.verMu.Unlock()
	if s.ver == nil {
		db, err := sql.Open("sqlite", dsn(s.path, true))
		if err != nil {
			return 0, fmt.Errorf("data version: %w", err)
		}
		db.SetMaxOpenConns(1)
		conn, err := db.Conn(ctx)
		if err != nil {
			db.Close()
			return 0, fmt.Errorf("data version: %w", wrapError(err))
		}
		s.verDB, s.ver = db, conn
	}
	var v uint64
	if err := s.ver.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("data version: %w", wrapError(err))
	}
	return v, nil
}

// closeVersion closes the connection Changed pinned, and the change
// feed.
func (s *Store) closeVersion() error {
	s.verMu.Lock()
	defer s.verMu.Unlock()
	if s.feed != nil {
		s.feed.close()
	} else {
		s.d.stopFeed(s)
	}
	// The stopped feed stays, down: a Changed or WaitChanged after
	// Close falls back to the closed pool and returns its error.
	if s.ver == nil {
		return nil
	}
	err := s.ver.Close()
	if cerr := s.verDB.Close(); err == nil {
		err = cerr
	}
	s.ver, s.verDB = nil, nil
	return err
}

// stopFeed does nothing on SQLite: it has no feed.
func (sqliteDialect) stopFeed(*Store) {}

// wake is a channel that never fires on SQLite: WaitChanged polls.
func (sqliteDialect) wake(context.Context, *Store) (<-chan struct{}, bool) { return nil, false }
