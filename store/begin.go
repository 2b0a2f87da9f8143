package store

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"time"
)

// writeWait is how long a write transaction (an import's batch, a live
// run's row, a sweep, a purge) waits in all for the write lock before it
// fails: many times busyTimeout, because SQLite's busy handler
// is not fair. With many writers at once (importers and reviewers on
// other processes) one of them can wait out busyTimeout while the others
// take turns.
const writeWait = 2 * time.Minute

// beginWrite begins a write transaction, trying again while another
// connection holds the write lock, up to writeWait. The transaction takes
// the lock as it begins (_txlock=immediate), so a batch that began holds
// it until its commit: only the beginning waits.
func (s *Store) beginWrite(ctx context.Context) (*sql.Tx, error) {
	var tx *sql.Tx
	err := whileBusy(ctx, func() (err error) {
		tx, err = s.w.BeginTx(ctx, nil)
		return err
	})
	return tx, err
}

// whileBusy runs f, and again while it fails because another connection
// holds SQLite's write lock, up to writeWait in all. f must be safe to
// run again after such a failure (a transaction that did not begin, or
// rolled back whole).
func whileBusy(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(writeWait)
	for {
		err := f()
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(20+rand.IntN(80)) * time.Millisecond):
		}
	}
}
