package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"
)

// Retention says how long sift keeps review data, aged by the session's
// last activity. The stream files are core/capture's to sweep
// (capture.Sweep): the store tells it which files to keep longer
// (KeptFiles) and forgets those it deleted (ForgetFiles).
type Retention struct {
	// FullEventsFor keeps review events; 0 means 48 h.
	FullEventsFor time.Duration
	// FlaggedFor keeps a flagged session's review events and stream file
	// (beyond the files' retention, not beyond their size cap); 0 means
	// 30 days. A session with an open needs_followup decision counts as
	// flagged.
	FlaggedFor time.Duration
	// SummariesFor keeps summaries; 0 means 90 days. Decisions are never
	// swept while their summary exists; once it is gone, a session's
	// decisions go when its newest one is older than SummariesFor.
	SummariesFor time.Duration
	// BatchSize is how many rows one delete step handles; 0 means 500.
	BatchSize int
}

func (r Retention) withDefaults() Retention {
	if r.FullEventsFor <= 0 {
		r.FullEventsFor = 48 * time.Hour
	}
	if r.FlaggedFor <= 0 {
		r.FlaggedFor = 30 * 24 * time.Hour
	}
	if r.SummariesFor <= 0 {
		r.SummariesFor = 90 * 24 * time.Hour
	}
	if r.BatchSize <= 0 {
		r.BatchSize = 500
	}
	return r
}

// KeepsEvents reports whether a session keeps its review events at an age
// (since its last activity): younger than FullEventsFor, or, flagged,
// than FlaggedFor. An import neither builds nor writes those the sweep
// would delete at once (ingest.Options.KeepEvents): the summary, turns
// and tool calls are kept, and the detail is read again from the file on
// demand.
func (r Retention) KeepsEvents(age time.Duration, flagged bool) bool {
	r = r.withDefaults()
	return age <= r.FullEventsFor || flagged && age <= r.FlaggedFor
}

// SweepResult is what one pass over the review data removed.
type SweepResult struct {
	EventsDeleted  int
	SummariesSwept int
	DecisionsSwept int
	// WorkItemsSwept counts terminal work items without summaries, idle
	// for SummariesFor, removed with their cost rows.
	WorkItemsSwept int
	Batches        int
	// Failures lists what could not be deleted; Sweep also returns them
	// as its error.
	Failures []Failure
	Started  time.Time
	Elapsed  time.Duration
}

// Meta keys.
const (
	// metaLastSweep holds the last successful sweep's time.
	metaLastSweep = "last_sweep_success_ms"
	// metaRebuilding is set while a rebuild runs (or after one that
	// crashed): summaries are missing then, and no decision is swept.
	metaRebuilding = "rebuild_started_ms"
)

// Sweep runs one retention pass over the review data: review events,
// summaries, orphaned decisions and idle work items. Deletes run in
// batches of BatchSize, each its own transaction. A failure is returned
// (naming the table) and in the result. Whoever runs the whole pass (the
// stream files too) records a pass without failure with RecordSweep.
func (s *Store) Sweep(ctx context.Context, r Retention) (SweepResult, error) {
	r = r.withDefaults()
	now := s.now()
	began := time.Now()
	res := SweepResult{Started: now}
	err := s.sweepData(ctx, r, now, &res)
	if err != nil {
		res.Failures = append(res.Failures, Failure{"store " + s.path, err.Error()})
		err = fmt.Errorf("sweep: %w", err)
	}
	res.Elapsed = time.Since(began)
	return res, err
}

// RecordSweep records a retention pass that began at started and ran
// without failure as the last successful sweep (LastSweep).
func (s *Store) RecordSweep(ctx context.Context, started time.Time) error {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, metaLastSweep, strconv.FormatInt(started.UnixMilli(), 10)); err != nil {
		return fmt.Errorf("sweep: record success: %w", wrapError(err))
	}
	return nil
}

// LastSweep returns when the last successful sweep started; the zero time
// when none has.
func (s *Store) LastSweep(ctx context.Context) (time.Time, error) {
	var v string
	err := s.r.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, metaLastSweep).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("last sweep: %w", wrapError(err))
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("last sweep: %q: %w", v, err)
	}
	return time.UnixMilli(n).UTC(), nil
}

// KeptFiles returns the indexed stream files the retention sweep keeps
// longer than others (capture.SweepSpec.Keep), each for how long: those of
// flagged sessions and of sessions with an open needs_followup, for
// FlaggedFor.
func (s *Store) KeptFiles(ctx context.Context, r Retention) (map[string]time.Duration, error) {
	r = r.withDefaults()
	rows, err := s.r.QueryContext(ctx, `SELECT f.path FROM stream_files f
		JOIN agent_stream_summaries s ON s.work_item_id = f.work_item_id AND s.file_name = f.file_name
		WHERE `+flaggedSQL)
	if err != nil {
		return nil, fmt.Errorf("flagged files: %w", wrapError(err))
	}
	defer rows.Close()
	out := map[string]time.Duration{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out[p] = r.FlaggedFor
	}
	return out, wrapError(rows.Err())
}

// ForgetFiles drops deleted stream files from the ingest index, in one
// transaction (capture.SweepSpec.Forget).
func (s *Store) ForgetFiles(ctx context.Context, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("forget files: %w", wrapError(err))
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, `DELETE FROM stream_files WHERE path = ?`)
	if err != nil {
		return fmt.Errorf("forget files: %w", wrapError(err))
	}
	defer st.Close()
	for _, p := range paths {
		if _, err := st.ExecContext(ctx, p); err != nil {
			return fmt.Errorf("forget files: %w", wrapError(err))
		}
	}
	return wrapError(tx.Commit())
}

// flaggedSQL is true for a flagged session row s: a flag, or an open
// follow-up on it.
const flaggedSQL = `(s.flagged = 1 OR EXISTS (SELECT 1 FROM decision_latest l WHERE l.decision = 'needs_followup'
	AND l.work_item_id = s.work_item_id AND l.file_name = s.file_name AND ` + openFollowupSQL + `))`

// openFollowupSQL is true for a needs_followup pointer l that is open
// (review.Decision.OpenFollowup): no later session-level reviewed decision
// closed it.
const openFollowupSQL = `NOT EXISTS (SELECT 1 FROM decision_latest r WHERE r.work_item_id = l.work_item_id
	AND r.file_name = l.file_name AND r.turn_id = '' AND r.tool_call_id = '' AND r.decision = 'reviewed'
	AND r.decision_id > l.decision_id)`

// sweepData deletes expired review events, summaries and orphaned
// decisions in batches.
func (s *Store) sweepData(ctx context.Context, r Retention, now time.Time, res *SweepResult) error {
	cutEvents := now.Add(-r.FullEventsFor).UnixMilli()
	cutFlagged := now.Add(-r.FlaggedFor).UnixMilli()
	cutSummaries := now.Add(-r.SummariesFor).UnixMilli()
	steps := []struct {
		n   *int
		sql string
		arg []any
	}{
		{&res.EventsDeleted, `DELETE FROM review_events WHERE rowid IN (SELECT e.rowid FROM review_events e
			JOIN agent_stream_summaries s ON s.work_item_id = e.work_item_id AND s.file_name = e.file_name
			WHERE s.activity_at < ? AND (s.activity_at < ? OR NOT ` + flaggedSQL + `) LIMIT ?)`,
			[]any{cutEvents, cutFlagged}},
		{&res.SummariesSwept, `DELETE FROM agent_stream_summaries WHERE rowid IN (SELECT rowid FROM agent_stream_summaries
			WHERE activity_at < ? LIMIT ?)`, []any{cutSummaries}},
		// A session's decisions go when its summary is gone and its
		// newest decision is as old as a summary may be.
		{&res.DecisionsSwept, `DELETE FROM review_decisions WHERE id IN (SELECT d.id FROM review_decisions d
			WHERE d.created_at < ? AND NOT EXISTS (SELECT 1 FROM agent_stream_summaries s
				WHERE s.work_item_id = d.work_item_id AND s.file_name = d.file_name)
			AND NOT EXISTS (SELECT 1 FROM review_decisions n WHERE n.work_item_id = d.work_item_id
				AND n.file_name = d.file_name AND n.created_at >= ?) LIMIT ?)`, []any{cutSummaries, cutSummaries}},
	}
	// Work items with nothing left to show go with their cost rows.
	steps = append(steps, struct {
		n   *int
		sql string
		arg []any
	}{&res.WorkItemsSwept, `DELETE FROM work_items WHERE id IN (SELECT w.id FROM work_items w
		WHERE w.state = 'terminal' AND w.updated_at < ? AND NOT EXISTS (SELECT 1 FROM agent_stream_summaries s
			WHERE s.work_item_id = w.id) LIMIT ?)`, []any{cutSummaries}})
	var rebuilding int
	if err := s.w.QueryRowContext(ctx, `SELECT COUNT(*) FROM meta WHERE key = ?`, metaRebuilding).Scan(&rebuilding); err != nil {
		return fmt.Errorf("sweep: %w", wrapError(err))
	}
	if rebuilding > 0 {
		steps = append(steps[:2], steps[3])
	}
	for _, st := range steps {
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			args := append(append([]any{}, st.arg...), r.BatchSize)
			out, err := s.w.ExecContext(ctx, st.sql, args...)
			if err != nil {
				return fmt.Errorf("sweep %s: %w", strings.Fields(st.sql)[2], wrapError(err))
			}
			n, _ := out.RowsAffected()
			*st.n += int(n)
			if n > 0 {
				res.Batches++
			}
			if n < int64(r.BatchSize) {
				break
			}
		}
	}
	// Give the freed pages back: the file shrinks at the next
	// checkpoint rather than staying at its largest size.
	if res.EventsDeleted+res.SummariesSwept+res.DecisionsSwept+res.WorkItemsSwept > 0 {
		if _, err := s.sqliteExec(ctx, s.w, `PRAGMA incremental_vacuum`); err != nil {
			return fmt.Errorf("sweep: vacuum: %w", wrapError(err))
		}
		if _, err := s.sqliteExec(ctx, s.w, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			return fmt.Errorf("sweep: checkpoint: %w", wrapError(err))
		}
	}
	// The pointers of swept decisions.
	if res.DecisionsSwept > 0 {
		if _, err := s.w.ExecContext(ctx, `DELETE FROM decision_latest WHERE decision_id NOT IN (SELECT id FROM review_decisions)`); err != nil {
			return fmt.Errorf("sweep decision_latest: %w", wrapError(err))
		}
	}
	return nil
}

// Failure is a file or table a sweep could not clean, and why.
type Failure struct {
	Path   string
	Reason string
}

// String returns "path: reason".
func (f Failure) String() string { return f.Path + ": " + f.Reason }

// reason is an error as a failure's reason, without the path os errors
// repeat.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
