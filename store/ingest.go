package store

import (
	"context"
	"fmt"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
)

// The store's side of an import (core/ingest): the questions an
// incremental import asks, answered in SQL, and the writing of the rows
// it hands over. The store never reads a stream file.

var (
	_ ingest.Completer = (*Store)(nil)
	_ ingest.Rebuilder = (*Store)(nil)
)

// ImportState implements ingest.Store: the ingest index, the running work
// items and the files of purged sessions.
func (s *Store) ImportState(ctx context.Context) (ingest.State, error) {
	var st ingest.State
	var err error
	if st.Indexed, err = s.indexed(ctx); err != nil {
		return st, err
	}
	if st.Running, err = s.runningWorkItems(ctx); err != nil {
		return st, err
	}
	if st.Purged, err = s.purgedFiles(ctx); err != nil {
		return st, err
	}
	st.Pinned, err = s.PinnedFiles(ctx)
	return st, err
}

// importCacheKiB is the writer's page cache during an import: twice the
// largest batch.
const importCacheKiB = 2 * ingest.MaxBatchBytes >> 10

// ImportWriter implements ingest.Store. For the length of the import the
// writer's page cache holds a whole batch, so that SQLite does not spill
// pages to the WAL mid-transaction and write them again at commit;
// closing the writer gives the cache back to SQLite's default and frees
// its memory.
func (s *Store) ImportWriter(ctx context.Context) (ingest.Writer, error) {
	if _, err := s.sqliteExec(ctx, s.w, fmt.Sprintf("PRAGMA cache_size = %d", -importCacheKiB)); err != nil {
		return nil, fmt.Errorf("import: %w", wrapError(err))
	}
	return &importWriter{s: s, costs: costFiles{}}, nil
}

// importWriter writes one import's batches, with what it learnt of the
// cost rows so far.
type importWriter struct {
	s     *Store
	costs costFiles
	rows  []*sessionRow
}

// Encode implements ingest.Writer: it encodes a session's summary and
// review events as the store writes them (newSessionRow). It is safe for
// concurrent use.
func (w *importWriter) Encode(sess *ingest.Session) (ingest.Row, error) {
	var evs list[summary.ReviewEvent]
	if sess.Events != nil {
		evs = sess.Events
	}
	r, err := newSessionRow(sess, evs)
	if err != nil {
		return nil, err
	}
	// The readers prepare the search document: the writer, which they
	// all wait for, writes it.
	if w.s.unprepared {
		return r, nil
	}
	if err := w.s.d.prepareRowDoc(r); err != nil {
		return nil, err
	}
	return r, nil
}

// Write implements ingest.Writer: one transaction per batch (writeRows).
func (w *importWriter) Write(ctx context.Context, rows []ingest.Row) error {
	w.rows = w.rows[:0]
	for _, r := range rows {
		sr, ok := r.(*sessionRow)
		if !ok {
			return fmt.Errorf("write batch: a %T is not a row of this store", r)
		}
		w.rows = append(w.rows, sr)
	}
	// What a batch learnt of the cost rows holds for its transaction
	// only: another process (another machine on PostgreSQL) may write
	// cost rows of the same work items between two batches, and a stale
	// "no cost row" would insert a second one.
	clear(w.costs)
	err := w.s.writeRows(ctx, w.rows, w.costs)
	clear(w.rows)
	return err
}

// Close implements ingest.Writer.
func (w *importWriter) Close() error {
	_, err := w.s.sqliteExec(context.Background(), w.s.w, "PRAGMA cache_size = -2000; PRAGMA shrink_memory")
	return wrapError(err)
}
