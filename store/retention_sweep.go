package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/core/review"
)

// eventsSweepSQL selects the review events past their tier: older than
// FullEventsFor, and, flagged, than FlaggedFor; never those of a session
// with an open follow-up.
const eventsSweepSQL = `FROM review_events e
	JOIN agent_stream_summaries s ON s.work_item_id = e.work_item_id AND s.file_name = e.file_name
	WHERE s.activity_at < ? AND (s.activity_at < ? OR s.flagged = 0) AND NOT ` + followupOpenSQL

// summaryCandidatesSQL selects, from the retention index in its order,
// the sessions past SummariesFor that this host recorded and that have no
// open follow-up, after a place in that order (activity, work item,
// file): those whose files are gone go. The path is the indexed file's,
// else the summary's own.
func summaryCandidatesSQL(d dialect) string {
	return `SELECT s.work_item_id, s.file_name, s.activity_at,
	COALESCE((SELECT f.path FROM stream_files f WHERE f.work_item_id = s.work_item_id AND f.file_name = s.file_name LIMIT 1), s.path)
	FROM agent_stream_summaries s` + d.indexedBy("summaries_retention") + `
	WHERE s.activity_at < ? AND (s.activity_at, s.work_item_id, s.file_name) > (?, ?, ?)
	AND COALESCE(s.host_id, (SELECT value FROM meta WHERE key = 'legacy_host')) = ?
	AND NOT ` + followupOpenSQL + ` ORDER BY s.activity_at, s.work_item_id, s.file_name LIMIT ?`
}

// workItemsSweepSQL selects the terminal work items idle for
// SummariesFor with no summary left.
const workItemsSweepSQL = `FROM work_items w WHERE w.state = 'terminal' AND w.updated_at < ?
	AND NOT EXISTS (SELECT 1 FROM agent_stream_summaries s WHERE s.work_item_id = w.id)`

// sweepData deletes, or, dry, counts, the expired review events,
// the summaries whose files are gone and the idle work items, in batches.
func (s *Store) sweepData(ctx context.Context, r retention.Policy, now time.Time, res *SweepResult) error {
	cutEvents := now.Add(-r.FullEventsFor).UnixMilli()
	cutFlagged := now.Add(-r.FlaggedFor).UnixMilli()
	cutSummaries := now.Add(-r.SummariesFor).UnixMilli()
	if err := s.sweepEvents(ctx, r, cutEvents, cutFlagged, res); err != nil {
		return err
	}
	if err := s.sweepSummaries(ctx, r, cutSummaries, res); err != nil {
		return err
	}
	var rebuilding int
	if err := s.w.QueryRowContext(ctx, `SELECT COUNT(*) FROM meta WHERE key = ?`, metaRebuilding).Scan(&rebuilding); err != nil {
		return fmt.Errorf("sweep: %w", wrapError(err))
	}
	// While a rebuild runs, summaries are missing: no work item is idle.
	if rebuilding == 0 {
		if r.DryRun {
			if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) `+workItemsSweepSQL, cutSummaries).Scan(&res.WorkItemsSwept); err != nil {
				return fmt.Errorf("sweep work_items: %w", wrapError(err))
			}
		} else if err := s.deleteInBatches(ctx, r, `DELETE FROM work_items WHERE id IN (SELECT w.id `+workItemsSweepSQL+` LIMIT ?)`,
			[]any{cutSummaries}, &res.WorkItemsSwept, res); err != nil {
			return err
		}
	}
	if r.DryRun || res.EventsDeleted+res.SummariesSwept+res.WorkItemsSwept == 0 {
		return nil
	}
	if res.SummariesSwept > 0 {
		if err := s.tidySearchIndex(ctx); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	// Give the freed pages back: the file shrinks at the next
	// checkpoint rather than staying at its largest size.
	if _, err := s.sqliteExec(ctx, s.w, `PRAGMA incremental_vacuum`); err != nil {
		return fmt.Errorf("sweep: vacuum: %w", wrapError(err))
	}
	if _, err := s.sqliteExec(ctx, s.w, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("sweep: checkpoint: %w", wrapError(err))
	}
	return nil
}

// sweepEvents deletes the review events past their tier; dry, it lists
// their sessions.
func (s *Store) sweepEvents(ctx context.Context, r retention.Policy, cutEvents, cutFlagged int64, res *SweepResult) error {
	if !r.DryRun {
		return s.deleteInBatches(ctx, r, `DELETE FROM review_events WHERE rowid IN (SELECT e.rowid `+eventsSweepSQL+` LIMIT ?)`,
			[]any{cutEvents, cutFlagged}, &res.EventsDeleted, res)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT e.work_item_id, e.file_name `+eventsSweepSQL+` ORDER BY 1, 2`, cutEvents, cutFlagged)
	if err != nil {
		return fmt.Errorf("sweep review_events: %w", wrapError(err))
	}
	defer rows.Close()
	for rows.Next() {
		var k review.SessionKey
		if err := rows.Scan(&k.WorkItemID, &k.FileName); err != nil {
			return fmt.Errorf("sweep review_events: %w", wrapError(err))
		}
		res.EventSessions = append(res.EventSessions, k)
	}
	res.EventsDeleted = len(res.EventSessions)
	return wrapError(rows.Err())
}

// deleteInBatches runs a delete whose last argument is its batch size
// until it deletes fewer rows than that, counting them into n.
func (s *Store) deleteInBatches(ctx context.Context, r retention.Policy, query string, args []any, n *int, res *SweepResult) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		out, err := s.w.ExecContext(ctx, query, append(append([]any{}, args...), r.BatchSize)...)
		if err != nil {
			return fmt.Errorf("sweep %s: %w", strings.Fields(query)[2], wrapError(err))
		}
		k, _ := out.RowsAffected()
		*n += int(k)
		if k > 0 {
			res.Batches++
		}
		if k < int64(r.BatchSize) {
			return nil
		}
	}
}

// sweepSummaries removes the summaries past SummariesFor whose stream
// files are gone, a batch of candidates at a time: each gone one is
// deleted (with its review events, search document and index row) in the
// batch's transaction, which checks again that it is old and has no open
// follow-up (a decision made meanwhile keeps it).
func (s *Store) sweepSummaries(ctx context.Context, r retention.Policy, cut int64, res *SweepResult) error {
	after := SweptSession{Activity: time.UnixMilli(-1 << 62)}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch, more, err := s.summaryCandidates(ctx, r, cut, after)
		if err != nil {
			return fmt.Errorf("sweep agent_stream_summaries: %w", err)
		}
		if len(batch) > 0 {
			after = batch[len(batch)-1]
		}
		var gone []SweptSession
		for _, c := range batch {
			if r.FileGone(c.Path) {
				gone = append(gone, c)
			}
		}
		if r.DryRun {
			res.Sessions = append(res.Sessions, gone...)
			res.SummariesSwept += len(gone)
		} else if len(gone) > 0 {
			n, err := s.deleteSummaries(ctx, gone, cut)
			if err != nil {
				return fmt.Errorf("sweep agent_stream_summaries: %w", err)
			}
			res.SummariesSwept += n
			res.Batches++
		}
		if !more {
			return nil
		}
	}
}

// summaryCandidates reads a batch of candidates after a session in their
// order; more is false after the last batch.
func (s *Store) summaryCandidates(ctx context.Context, r retention.Policy, cut int64, after SweptSession) (batch []SweptSession, more bool, err error) {
	rows, err := s.r.QueryContext(ctx, summaryCandidatesSQL(s.d), cut, after.Activity.UnixMilli(), after.Key.WorkItemID,
		after.Key.FileName, s.host, r.BatchSize)
	if err != nil {
		return nil, false, wrapError(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c SweptSession
		var activity int64
		if err := rows.Scan(&c.Key.WorkItemID, &c.Key.FileName, &activity, &c.Path); err != nil {
			return nil, false, wrapError(err)
		}
		c.Activity = time.UnixMilli(activity).UTC()
		batch = append(batch, c)
	}
	return batch, len(batch) == r.BatchSize, wrapError(rows.Err())
}

// deleteSummaries deletes the summaries of sessions whose files are gone,
// in one transaction, and forgets their files.
func (s *Store) deleteSummaries(ctx context.Context, gone []SweptSession, cut int64) (int, error) {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return 0, wrapError(err)
	}
	defer tx.Rollback()
	del, err := tx.PrepareContext(ctx, `DELETE FROM agent_stream_summaries AS s
		WHERE s.work_item_id = ? AND s.file_name = ? AND s.activity_at < ? AND NOT `+followupOpenSQL)
	if err != nil {
		return 0, wrapError(err)
	}
	defer del.Close()
	forget, err := tx.PrepareContext(ctx, `DELETE FROM stream_files WHERE path = ?`)
	if err != nil {
		return 0, wrapError(err)
	}
	defer forget.Close()
	n := 0
	for _, g := range gone {
		out, err := del.ExecContext(ctx, g.Key.WorkItemID, g.Key.FileName, cut)
		if err != nil {
			return 0, wrapError(err)
		}
		if k, _ := out.RowsAffected(); k > 0 {
			n++
			if _, err := forget.ExecContext(ctx, g.Path); err != nil {
				return 0, wrapError(err)
			}
		}
	}
	return n, wrapError(tx.Commit())
}
