package store

import (
	"context"
	"database/sql"

	"github.com/agentsift/sift/core/review"
)

// On SQLite one writer connection serialises a process's writes and the
// file's lock serialises processes: the store's writes read and then
// write (a cost row found or inserted, a decision's pointer moved) and
// rely on it. On PostgreSQL many machines write at once, so the store
// takes advisory locks, for the length of a transaction:
//
//   - an import's write batch takes the writes lock alone: batches of
//     different importers, whose rows overlap, never interleave (nor
//     deadlock on each other's rows);
//   - a decision or an undo takes the writes lock shared (decisions run
//     side by side, never inside a batch that rewrites their session's
//     summary) and its session's lock alone: two reviewers deciding on
//     one session leave its pointer at the latest decision.
//
// Everyone takes the writes lock first: no two transactions wait on each
// other in a cycle.

// writesLock is the advisory lock key of the writes lock ("sift" "w").
const writesLock = 0x7369667477

// lockWrites takes the writes lock alone in an import's transaction; it
// does nothing on SQLite.
func (s *Store) lockWrites(ctx context.Context, tx *sql.Tx) error { return s.d.lockWrites(ctx, tx) }

// lockSession takes the writes lock shared and a session's lock alone in
// a decision's transaction; it does nothing on SQLite.
func (s *Store) lockSession(ctx context.Context, tx *sql.Tx, k review.SessionKey) error {
	return s.d.lockSession(ctx, tx, k)
}

func (sqliteDialect) lockWrites(context.Context, *sql.Tx) error                     { return nil }
func (sqliteDialect) lockSession(context.Context, *sql.Tx, review.SessionKey) error { return nil }

func (pgDialect) lockWrites(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?)`, int64(writesLock))
	return wrapError(err)
}

func (pgDialect) lockSession(ctx context.Context, tx *sql.Tx, k review.SessionKey) error {
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock_shared(?), pg_advisory_xact_lock(hashtextextended(? || '/' || ?, 0))`,
		int64(writesLock), k.WorkItemID, k.FileName)
	return wrapError(err)
}
