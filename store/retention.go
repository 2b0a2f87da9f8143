package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"time"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/core/review"
)

// SweepResult is what one pass over the review data removed, or, dry,
// would remove.
type SweepResult struct {
	// EventsDeleted counts the sessions whose review events went.
	EventsDeleted int
	// SummariesSwept counts the sessions whose summaries went.
	SummariesSwept int
	// WorkItemsSwept counts terminal work items without summaries, idle
	// for SummariesFor, removed with their cost rows.
	WorkItemsSwept int
	Batches        int
	// Sessions and EventSessions list, in a dry run, the sessions whose
	// summaries and whose review events would go.
	Sessions      []SweptSession
	EventSessions []review.SessionKey
	// Failures lists what could not be deleted; Sweep also returns them
	// as its error.
	Failures []Failure
	Started  time.Time
	Elapsed  time.Duration
}

// SweptSession is a session a sweep removes: its key, its stream file
// and its last activity.
type SweptSession struct {
	Key      review.SessionKey
	Path     string
	Activity time.Time
}

// Meta keys.
const (
	// metaLastSweep holds the last successful sweep's time.
	metaLastSweep = "last_sweep_success_ms"
	// metaRebuilding is set while a rebuild runs (or after one that
	// crashed): summaries are missing then, and no work item is swept.
	metaRebuilding = "rebuild_started_ms"
)

// Sweep runs one retention pass over the review data: review events,
// summaries whose files are gone and idle work items; never decisions.
// Deletes run in batches of BatchSize, each its own transaction. A
// failure is returned (naming the table) and in the result. Whoever runs
// the whole pass (the stream files too) records it with RecordSweepRun.
func (s *Store) Sweep(ctx context.Context, r retention.Policy) (SweepResult, error) {
	r = r.WithDefaults()
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
// longer than others (retention.SweepSpec.Keep), each for how long: those of
// flagged sessions, for FlaggedFor. The files of open follow-ups are kept
// always (PinnedFiles).
func (s *Store) KeptFiles(ctx context.Context, r retention.Policy) (map[string]time.Duration, error) {
	r = r.WithDefaults()
	out := map[string]time.Duration{}
	err := s.sessionFiles(ctx, `s.flagged = 1`, func(p string) { out[p] = r.FlaggedFor })
	if err != nil {
		return nil, fmt.Errorf("flagged files: %w", err)
	}
	return out, nil
}

// PinnedFiles returns the stream files of sessions with an open
// needs_followup decision (retention.SweepSpec.Pinned): neither their age
// nor the size cap removes them until the follow-up is closed, and an
// import always builds their review events (ingest.State.Pinned).
func (s *Store) PinnedFiles(ctx context.Context) (map[string]bool, error) {
	out := map[string]bool{}
	if err := s.sessionFiles(ctx, followupOpenSQL, func(p string) { out[p] = true }); err != nil {
		return nil, fmt.Errorf("follow-up files: %w", err)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT f.path FROM stream_files f WHERE `+fileFollowupOpenSQL)
	if err != nil {
		return nil, fmt.Errorf("follow-up files: %w", wrapError(err))
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("follow-up files: %w", wrapError(err))
		}
		out[p] = true
	}
	return out, wrapError(rows.Err())
}

// sessionFiles calls add with the files, indexed and as the summary
// names them, of the sessions s that match a condition.
func (s *Store) sessionFiles(ctx context.Context, cond string, add func(string)) error {
	rows, err := s.r.QueryContext(ctx, `SELECT f.path FROM stream_files f
		JOIN agent_stream_summaries s ON s.work_item_id = f.work_item_id AND s.file_name = f.file_name
		WHERE `+cond+` UNION SELECT s.path FROM agent_stream_summaries s WHERE `+cond)
	if err != nil {
		return wrapError(err)
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return wrapError(err)
		}
		add(p)
	}
	return wrapError(rows.Err())
}

// ForgetFiles drops deleted stream files from the ingest index, in one
// transaction (retention.SweepSpec.Forget).
func (s *Store) ForgetFiles(ctx context.Context, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	tx, err := s.beginWrite(ctx)
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
const flaggedSQL = `(s.flagged = 1 OR ` + followupOpenSQL + `)`

// followupOpenSQL is true for a session row s with an open needs_followup
// decision on it, a turn or a tool call.
const followupOpenSQL = `EXISTS (SELECT 1 FROM decision_latest l WHERE l.decision = 'needs_followup'
	AND l.work_item_id = s.work_item_id AND l.file_name = s.file_name AND ` + openFollowupSQL + `)`

// fileFollowupOpenSQL is followupOpenSQL for an indexed file f, whose
// summary may be missing (a rebuild under way).
const fileFollowupOpenSQL = `EXISTS (SELECT 1 FROM decision_latest l WHERE l.decision = 'needs_followup'
	AND l.work_item_id = f.work_item_id AND l.file_name = f.file_name AND ` + openFollowupSQL + `)`

// openFollowupSQL is true for a needs_followup pointer l that is open
// (review.Decision.OpenFollowup): no later session-level reviewed decision
// closed it, later by time, then by id (review.Decision.Later).
const openFollowupSQL = `NOT EXISTS (SELECT 1 FROM decision_latest r WHERE r.work_item_id = l.work_item_id
	AND r.file_name = l.file_name AND r.turn_id = '' AND r.tool_call_id = '' AND r.decision = 'reviewed'
	AND (r.decided_at > l.decided_at OR r.decided_at = l.decided_at AND r.decision_id > l.decision_id))`

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
