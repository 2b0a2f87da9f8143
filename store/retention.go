package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/config"
)

// Retention says how long sift keeps what. Raw stream files under LogsRoot
// are aged by last-write time; review data by the session's last activity.
type Retention struct {
	// LogsRoot is the folder of captured stream files; empty skips the
	// file pass. Only files of the capture layout directly in its work
	// item folders are ever deleted, and only when it is a folder sift
	// owns (capture.CheckSweepRoot); any other root is refused, with
	// SweepResult.LogsRefused saying why.
	LogsRoot string
	// RetainedDays deletes stream files older than this many days; 0 keeps
	// them forever.
	RetainedDays int
	// MaxTotalSizeMb deletes the oldest stream files, whatever their age
	// and flags, until the total is under this many MiB; 0 disables.
	MaxTotalSizeMb int
	// FullEventsFor keeps review events; 0 means 48 h.
	FullEventsFor time.Duration
	// FlaggedFor keeps a flagged session's review events and stream file
	// (beyond RetainedDays, not beyond the size cap); 0 means 30 days. A
	// session with an open needs_followup decision counts as flagged.
	FlaggedFor time.Duration
	// SummariesFor keeps summaries; 0 means 90 days. Decisions are never
	// swept while their summary exists; once it is gone, a session's
	// decisions go when its newest one is older than SummariesFor.
	SummariesFor time.Duration
	// BatchSize is how many rows or files one delete step handles; 0
	// means 500.
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

// SweepResult is what one retention pass removed.
type SweepResult struct {
	FilesDeleted   int
	BytesDeleted   int64
	FilesBySize    int // of FilesDeleted, those removed by the size cap
	FilesKept      int
	BytesKept      int64
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
	// LogsRefused is the *capture.RootError of a logs root the file pass
	// refused (not sift's own, /, the home folder, a link, a file). The
	// pass skipped it; that is not a failure, and the rest of the sweep
	// ran.
	LogsRefused error
	Started     time.Time
	Elapsed     time.Duration
}

// Meta keys.
const (
	// metaLastSweep holds the last successful sweep's time.
	metaLastSweep = "last_sweep_success_ms"
	// metaRebuilding is set while a rebuild runs (or after one that
	// crashed): summaries are missing then, and no decision is swept.
	metaRebuilding = "rebuild_started_ms"
)

// Sweep runs one retention pass: stream files by age and size, then review
// events, summaries and orphaned decisions. Deletes run in batches of
// BatchSize, each its own transaction. Any failure is returned (all of them
// joined, each naming its file or table) and the pass goes on with the
// rest; only a pass without failure is recorded as the last successful
// sweep (LastSweep).
func (s *Store) Sweep(ctx context.Context, r Retention) (SweepResult, error) {
	r = r.withDefaults()
	if r.LogsRoot != "" {
		// The ingest index holds absolute paths.
		if abs, err := filepath.Abs(r.LogsRoot); err == nil {
			r.LogsRoot = abs
		}
	}
	now := s.now()
	began := time.Now()
	res := SweepResult{Started: now}
	if r.LogsRoot != "" {
		if err := s.sweepFiles(ctx, r, now, &res); err != nil {
			res.Failures = append(res.Failures, Failure{r.LogsRoot, err.Error()})
		}
	}
	if err := s.sweepData(ctx, r, now, &res); err != nil {
		res.Failures = append(res.Failures, Failure{"store " + s.path, err.Error()})
	}
	res.Elapsed = time.Since(began)
	if len(res.Failures) > 0 {
		var errs []error
		for _, f := range res.Failures {
			errs = append(errs, errors.New(f.String()))
		}
		return res, fmt.Errorf("sweep: %d failure(s): %w", len(res.Failures), errors.Join(errs...))
	}
	if _, err := s.w.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, metaLastSweep, strconv.FormatInt(now.UnixMilli(), 10)); err != nil {
		return res, fmt.Errorf("sweep: record success: %w", wrapError(err))
	}
	return res, nil
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

// logFile is a stream file of the capture layout under the logs root.
type logFile struct {
	path     string // absolute, as the ingest index holds it
	workItem string // the folder under the root
	name     string // the file's name in it
	size     int64
	mtime    time.Time
}

// sweepFiles deletes stream files by age (flagged ones kept longer) and
// then, oldest first, by the size cap. It deletes nothing but files of the
// capture layout, `<root>/<workItem>/<phase>-<iter>-<hex>.jsonl`, under a
// root sift owns (capture.CheckSweepRoot): never a file at another depth or
// of another name, never in a hidden folder, never through a link. A
// refused root skips the pass and is reported in res.LogsRefused.
func (s *Store) sweepFiles(ctx context.Context, r Retention, now time.Time, res *SweepResult) error {
	rt, err := openLogsRoot(r.LogsRoot)
	var refused *capture.RootError
	switch {
	case errors.As(err, &refused):
		res.LogsRefused = refused
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return nil // nothing captured yet
	case err != nil:
		return err
	}
	defer rt.Close()
	files := layoutFiles(rt, r.LogsRoot, res)
	sort.Slice(files, func(i, j int) bool { return files[i].mtime.Before(files[j].mtime) })
	flagged, err := s.flaggedPaths(ctx)
	if err != nil {
		return err
	}
	var del []logFile
	var keep []logFile
	var total int64
	// Both limits saturate: 106,752 days or 1<<44 MiB wrapped negative
	// here once, and swept fresh files.
	limit := config.Days(r.RetainedDays)
	for _, f := range files {
		limit := limit
		if r.RetainedDays > 0 && flagged[f.path] && r.FlaggedFor > limit {
			limit = r.FlaggedFor
		}
		if r.RetainedDays > 0 && now.Sub(f.mtime) > limit {
			del = append(del, f)
			continue
		}
		keep = append(keep, f)
		total += f.size
	}
	if capB := config.MiB(r.MaxTotalSizeMb); r.MaxTotalSizeMb > 0 {
		i := 0
		for ; i < len(keep) && total > capB; i++ {
			total -= keep[i].size
			res.FilesBySize++
		}
		del = append(del, keep[:i]...)
		keep = keep[i:]
	}
	for _, f := range keep {
		res.FilesKept++
		res.BytesKept += f.size
	}
	emptied := map[string]bool{}
	for start := 0; start < len(del); start += r.BatchSize {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := del[start:min(start+r.BatchSize, len(del))]
		var gone []string
		for _, f := range batch {
			if err := s.removeLayoutFile(rt, f); err != nil && !errors.Is(err, fs.ErrNotExist) {
				res.Failures = append(res.Failures, Failure{f.path, reason(err)})
				continue
			}
			res.FilesDeleted++
			res.BytesDeleted += f.size
			gone = append(gone, f.path)
			emptied[f.workItem] = true
		}
		if err := s.forgetFiles(ctx, gone); err != nil {
			return err
		}
		res.Batches++
	}
	// A work item folder left empty goes too; rmdir fails harmlessly on
	// one that is not empty, and a link is never removed.
	for wi := range emptied {
		if fi, err := rt.Lstat(wi); err == nil && fi.IsDir() {
			rt.Remove(wi)
		}
	}
	return nil
}

// openLogsRoot opens a logs root the sweep may work in, after
// capture.CheckSweepRoot, and checks that what it opened is the folder it
// checked (not a link swapped in meanwhile). Every later access goes
// through the *os.Root, which cannot leave the folder.
func openLogsRoot(dir string) (*os.Root, error) {
	if err := capture.CheckSweepRoot(dir); err != nil {
		return nil, err
	}
	rt, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	li, err1 := os.Lstat(dir)
	fi, err2 := rt.Stat(".")
	if err1 != nil || err2 != nil || !li.IsDir() || !os.SameFile(li, fi) {
		rt.Close()
		return nil, &capture.RootError{Dir: dir, Problem: capture.RootSymlink}
	}
	return rt, nil
}

// layoutFiles lists the capture-layout files under the root: regular
// files with a stream file's name, in a work item folder (not hidden, not
// a link) directly under it. Nothing else is looked at, and no link is
// followed. A folder that cannot be read is a failure in res.
func layoutFiles(rt *os.Root, root string, res *SweepResult) []logFile {
	top, err := readDir(rt, ".")
	if err != nil {
		res.Failures = append(res.Failures, Failure{root, reason(err)})
		return nil
	}
	var files []logFile
	for _, d := range top {
		if d.Type() != fs.ModeDir || !capture.IsWorkItemDir(d.Name()) {
			continue
		}
		wr, err := openWorkItem(rt, d.Name())
		if err != nil {
			res.Failures = append(res.Failures, Failure{filepath.Join(root, d.Name()), reason(err)})
			continue
		}
		entries, err := readDir(wr, ".")
		wr.Close()
		if err != nil {
			res.Failures = append(res.Failures, Failure{filepath.Join(root, d.Name()), reason(err)})
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !capture.IsLayoutPath(d.Name()+"/"+e.Name()) {
				continue
			}
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue // gone or replaced meanwhile
			}
			files = append(files, logFile{path: filepath.Join(root, d.Name(), e.Name()), workItem: d.Name(),
				name: e.Name(), size: info.Size(), mtime: info.ModTime()})
		}
	}
	return files
}

// openWorkItem opens a work item folder under the root as a root of its
// own, refusing it unless it is a real folder (not a link) there.
func openWorkItem(rt *os.Root, name string) (*os.Root, error) {
	wr, err := rt.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	li, err1 := rt.Lstat(name)
	fi, err2 := wr.Stat(".")
	if err1 != nil || err2 != nil || !li.IsDir() || !os.SameFile(li, fi) {
		wr.Close()
		return nil, fmt.Errorf("%s is not a folder of its own", name)
	}
	return wr, nil
}

// removeLayoutFile deletes one listed file: in its work item folder,
// opened afresh and checked, by name, so that the removal cannot follow a
// link whatever changed since the listing; a name that is no longer a
// regular file is left alone.
func (s *Store) removeLayoutFile(rt *os.Root, f logFile) error {
	wr, err := openWorkItem(rt, f.workItem)
	if err != nil {
		return err
	}
	defer wr.Close()
	fi, err := wr.Lstat(f.name)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("no longer a regular file")
	}
	return s.remove(wr, f.name)
}

// readDir lists a folder of a root.
func readDir(rt *os.Root, name string) ([]fs.DirEntry, error) {
	f, err := rt.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// flaggedPaths returns the indexed stream files of flagged sessions.
func (s *Store) flaggedPaths(ctx context.Context) (map[string]bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT f.path FROM stream_files f
		JOIN agent_stream_summaries s ON s.work_item_id = f.work_item_id AND s.file_name = f.file_name
		WHERE s.flagged = 1 OR EXISTS (SELECT 1 FROM decision_latest l WHERE l.decision = 'needs_followup'
			AND l.work_item_id = s.work_item_id AND l.file_name = s.file_name)`)
	if err != nil {
		return nil, fmt.Errorf("flagged files: %w", wrapError(err))
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out[p] = true
	}
	return out, wrapError(rows.Err())
}

// forgetFiles drops deleted files from the ingest index, in one
// transaction.
func (s *Store) forgetFiles(ctx context.Context, paths []string) error {
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

// flaggedSQL is true for a flagged session row s.
const flaggedSQL = `(s.flagged = 1 OR EXISTS (SELECT 1 FROM decision_latest l WHERE l.decision = 'needs_followup'
	AND l.work_item_id = s.work_item_id AND l.file_name = s.file_name))`

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
		if _, err := s.w.ExecContext(ctx, `PRAGMA incremental_vacuum`); err != nil {
			return fmt.Errorf("sweep: vacuum: %w", wrapError(err))
		}
		if _, err := s.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
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
