package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/ingest"
)

// keptRuns is how many records of sweeps and of imports the store keeps
// (per table): a few months of daily sweeps and inbox starts.
const keptRuns = 500

// SweepRun is the record of one retention pass (not a dry run): who ran
// it and what it removed.
type SweepRun struct {
	Started time.Time
	Elapsed time.Duration
	// Runner names the command that swept: "sift sweep", "inbox",
	// "sift serve".
	Runner       string
	FilesDeleted int
	BytesDeleted int64
	FilesBySize  int
	Sessions     int
	// EventSessions counts the sessions whose review events went.
	EventSessions int
	WorkItems     int
	Failures      int
	FirstFailure  string
}

// RecordSweepRun records a retention pass, failed or not; the latest
// keptRuns are kept.
func (s *Store) RecordSweepRun(ctx context.Context, r SweepRun) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO sweep_runs (started_at, elapsed_ms, runner, files_deleted, bytes_deleted,
		files_by_size, sessions_swept, events_swept, work_items_swept, failures, first_failure)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.Started.UnixMilli(), r.Elapsed.Milliseconds(), r.Runner,
		r.FilesDeleted, r.BytesDeleted, r.FilesBySize, r.Sessions, r.EventSessions, r.WorkItems, r.Failures, r.FirstFailure)
	if err == nil {
		_, err = s.w.ExecContext(ctx, `DELETE FROM sweep_runs WHERE id <= (SELECT MAX(id) FROM sweep_runs) - ?`, keptRuns)
	}
	if err != nil {
		return fmt.Errorf("record sweep: %w", wrapError(err))
	}
	return nil
}

// LastSweepRun returns the record of the latest retention pass; ok is
// false when none was recorded.
func (s *Store) LastSweepRun(ctx context.Context) (r SweepRun, ok bool, err error) {
	var started, elapsed int64
	err = s.r.QueryRowContext(ctx, `SELECT started_at, elapsed_ms, runner, files_deleted, bytes_deleted, files_by_size,
		sessions_swept, events_swept, work_items_swept, failures, first_failure FROM sweep_runs ORDER BY id DESC LIMIT 1`).Scan(
		&started, &elapsed, &r.Runner, &r.FilesDeleted, &r.BytesDeleted, &r.FilesBySize, &r.Sessions, &r.EventSessions,
		&r.WorkItems, &r.Failures, &r.FirstFailure)
	if errors.Is(err, sql.ErrNoRows) {
		return SweepRun{}, false, nil
	}
	if err != nil {
		return SweepRun{}, false, fmt.Errorf("last sweep: %w", wrapError(err))
	}
	r.Started, r.Elapsed = time.UnixMilli(started).UTC(), time.Duration(elapsed)*time.Millisecond
	return r, true, nil
}

// SweepTotals returns what the recorded retention passes removed in all,
// and since when they were recorded (the zero time when never).
func (s *Store) SweepTotals(ctx context.Context) (SweepRun, time.Time, error) {
	var r SweepRun
	var since sql.NullInt64
	err := s.r.QueryRowContext(ctx, `SELECT MIN(started_at), COALESCE(SUM(files_deleted), 0), COALESCE(SUM(bytes_deleted), 0),
		COALESCE(SUM(files_by_size), 0), COALESCE(SUM(sessions_swept), 0), COALESCE(SUM(events_swept), 0),
		COALESCE(SUM(work_items_swept), 0), COALESCE(SUM(failures), 0) FROM sweep_runs`).Scan(&since, &r.FilesDeleted,
		&r.BytesDeleted, &r.FilesBySize, &r.Sessions, &r.EventSessions, &r.WorkItems, &r.Failures)
	if err != nil {
		return r, time.Time{}, fmt.Errorf("sweep totals: %w", wrapError(err))
	}
	return r, fromMs(since), nil
}

// ImportRun is the record of one import (ingest.Run) as the store keeps
// it.
type ImportRun struct {
	Started time.Time
	Elapsed time.Duration
	Source  ingest.Source
	Roots   []string
	// Found counts the stream files the import found; Read those it
	// read (new or changed), Sessions the sessions it wrote, Unchanged
	// those it skipped as unchanged since the last import.
	Found, Read, Sessions, Unchanged int
	// Unparseable counts the files that could not be read or
	// summarized; FirstError is the first, "path: why".
	Unparseable int
	FirstError  string
	// Ignored, Deferred and Purged are ingest.Result's.
	Ignored, Deferred, Purged int
	// StoreError is the store's failure that stopped the import.
	StoreError string
}

// RecordImport implements ingest.Recorder: it records an import's run;
// the latest keptRuns are kept.
func (s *Store) RecordImport(ctx context.Context, run ingest.Run) error {
	roots, err := json.Marshal(run.Roots)
	if err != nil {
		return fmt.Errorf("record import: %w", err)
	}
	if run.Roots == nil {
		roots = []byte("[]")
	}
	res := run.Result
	var first, storeErr string
	if len(res.Failed) > 0 {
		first = res.Failed[0].String()
	}
	if run.Err != nil {
		storeErr = run.Err.Error()
	}
	read := res.Files - res.Skipped - res.Deferred - res.Purged - len(res.Failed)
	_, err = s.w.ExecContext(ctx, `INSERT INTO import_runs (started_at, elapsed_ms, source, roots, files_found, files_read,
		sessions, unchanged, unparseable, first_error, ignored, deferred, purged, store_error)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, run.Started.UnixMilli(), res.Elapsed.Milliseconds(), string(run.Source),
		string(roots), res.Files, max(read, 0), res.Sessions, res.Skipped, len(res.Failed), first, res.Ignored, res.Deferred,
		res.Purged, storeErr)
	if err == nil {
		_, err = s.w.ExecContext(ctx, `DELETE FROM import_runs WHERE id <= (SELECT MAX(id) FROM import_runs) - ?`, keptRuns)
	}
	if err != nil {
		return fmt.Errorf("record import: %w", wrapError(err))
	}
	return nil
}

// LastImports returns the latest recorded import of each source, newest
// first.
func (s *Store) LastImports(ctx context.Context) ([]ImportRun, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT started_at, elapsed_ms, source, roots, files_found, files_read, sessions,
		unchanged, unparseable, first_error, ignored, deferred, purged, store_error FROM import_runs
		WHERE id IN (SELECT MAX(id) FROM import_runs GROUP BY source) ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("last imports: %w", wrapError(err))
	}
	defer rows.Close()
	var out []ImportRun
	for rows.Next() {
		var r ImportRun
		var started, elapsed int64
		var src, roots string
		if err := rows.Scan(&started, &elapsed, &src, &roots, &r.Found, &r.Read, &r.Sessions, &r.Unchanged, &r.Unparseable,
			&r.FirstError, &r.Ignored, &r.Deferred, &r.Purged, &r.StoreError); err != nil {
			return nil, fmt.Errorf("last imports: %w", wrapError(err))
		}
		if err := json.Unmarshal([]byte(roots), &r.Roots); err != nil {
			return nil, fmt.Errorf("last imports: roots %q: %w", roots, err)
		}
		r.Started, r.Elapsed, r.Source = time.UnixMilli(started).UTC(), time.Duration(elapsed)*time.Millisecond, ingest.Source(src)
		out = append(out, r)
	}
	return out, wrapError(rows.Err())
}

var _ ingest.Recorder = (*Store)(nil)
