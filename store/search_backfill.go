package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/summary"
)

// backfillBatch is how many sessions IndexMissing indexes per transaction.
const backfillBatch = 256

// IndexMissing indexes the sessions a database held before it had a
// search index (migration 0008 marks it), from their stored summaries,
// with the prompts their review events still hold and their decisions'
// notes: the text a fresh import indexes, but for the prompts and harness
// errors of sessions whose review events were swept (`sift rebuild` reads
// those from the files again). It runs in batches, each its own
// transaction, and is safe to stop: the next call goes on. Once every
// session is indexed it clears the mark, and later calls cost one read.
// It returns how many sessions it indexed.
//
// First it builds again, once, the documents an earlier sift stored with
// wrong call ids (repairSearchDocs); they count with those it indexed.
func (s *Store) IndexMissing(ctx context.Context) (int, error) {
	done, err := s.repairSearchDocs(ctx)
	if err != nil {
		return done, err
	}
	var mark int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM meta WHERE key = ?`, metaSearchBackfill).Scan(&mark); err != nil {
		return 0, fmt.Errorf("search backfill: %w", wrapError(err))
	}
	if mark == 0 {
		return done, nil
	}
	var after int64
	for {
		keys, last, err := s.unindexed(ctx, after)
		if err != nil {
			return done, err
		}
		if len(keys) == 0 {
			break
		}
		after = last
		docs := make([]*search.Doc, len(keys))
		for i, k := range keys {
			if docs[i], err = s.storedDoc(ctx, k); err != nil {
				return done, err
			}
		}
		if err := s.writeDocs(ctx, keys, docs); err != nil {
			return done, err
		}
		done += len(keys)
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, metaSearchBackfill); err != nil {
		return done, fmt.Errorf("search backfill: %w", wrapError(err))
	}
	return done, nil
}

// unindexed returns the next sessions after rowid `after` that have no
// search document, and the last one's rowid.
func (s *Store) unindexed(ctx context.Context, after int64) ([]review.SessionKey, int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT s.rowid, s.work_item_id, s.file_name FROM agent_stream_summaries s
		WHERE s.rowid > ? AND NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.work_item_id = s.work_item_id AND d.file_name = s.file_name)
		ORDER BY s.rowid LIMIT ?`, after, backfillBatch)
	if err != nil {
		return nil, 0, fmt.Errorf("search backfill: %w", wrapError(err))
	}
	return scanKeysAfter(rows)
}

// scanKeysAfter reads rows of (a position, a session's key) and returns
// the keys and the last position.
func scanKeysAfter(rows *sql.Rows) ([]review.SessionKey, int64, error) {
	defer rows.Close()
	var keys []review.SessionKey
	var last int64
	for rows.Next() {
		var k review.SessionKey
		if err := rows.Scan(&last, &k.WorkItemID, &k.FileName); err != nil {
			return nil, 0, err
		}
		keys = append(keys, k)
	}
	return keys, last, wrapError(rows.Err())
}

// storedDoc builds a stored session's search document from its summary
// and the prompts of its review events.
func (s *Store) storedDoc(ctx context.Context, k review.SessionKey) (*search.Doc, error) {
	sess, err := s.GetSession(ctx, k)
	if err != nil {
		return nil, fmt.Errorf("search backfill: %w", err)
	}
	evs, err := s.ReviewEvents(ctx, k)
	if err != nil {
		return nil, fmt.Errorf("search backfill: %w", err)
	}
	var pieces []search.Piece
	for _, ev := range evs {
		if ev.Type == summary.ReviewPrompt {
			pieces = append(pieces, search.Piece{Where: search.InPrompt, Line: ev.Line, Text: ev.Summary})
		}
	}
	return search.NewDoc(&sess.Summary, pieces), nil
}

// writeDocs writes sessions' documents, with their notes, in one
// transaction. A session gone since it was read is skipped.
func (s *Store) writeDocs(ctx context.Context, keys []review.SessionKey, docs []*search.Doc) error {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("search backfill: %w", wrapError(err))
	}
	defer tx.Rollback()
	w, err := newDocWriter(ctx, tx, s.d)
	if err != nil {
		return err
	}
	defer w.close()
	for i, k := range keys {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM agent_stream_summaries WHERE work_item_id = ? AND file_name = ?`,
			k.WorkItemID, k.FileName).Scan(&one)
		if err == sql.ErrNoRows {
			continue
		}
		if err != nil {
			return fmt.Errorf("search backfill: %w", wrapError(err))
		}
		if _, err := w.addNotes(ctx, k, docs[i]); err != nil {
			return fmt.Errorf("search backfill %s: %w", k, err)
		}
		if err := w.write(ctx, k, docs[i], nil); err != nil {
			return fmt.Errorf("search backfill %s: %w", k, err)
		}
	}
	if err := w.flush(ctx); err != nil {
		return err
	}
	return wrapError(tx.Commit())
}
