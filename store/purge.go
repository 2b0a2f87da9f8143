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
	"strings"

	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/review"
)

// PurgeFile is a stream file of a purged session and what happens to it.
type PurgeFile struct {
	Path string
	// Delete is set for a file sift owns (a capture file inside the logs
	// folder): it is deleted. Any other file stays on disk and is
	// remembered as purged, so that imports skip it.
	Delete bool
	// Why says why a file is kept.
	Why string
	// Err is why a deletion failed, set by Purge.
	Err error
}

// PurgePlan is what purging one session removes: the rows of every table
// that holds it, and its stream files.
type PurgePlan struct {
	Session review.SessionKey
	// The rows per table.
	Summaries, ReviewEvents, IndexRows, CostRows, Decisions, UsageRows int
	Files                                                              []PurgeFile
}

// Empty reports whether nothing at all is stored for the session.
func (p PurgePlan) Empty() bool {
	return p.Summaries+p.ReviewEvents+p.IndexRows+p.CostRows+p.Decisions+p.UsageRows == 0 && len(p.Files) == 0
}

// PlanPurge lists what Purge would remove for a session; logsRoot is the
// logs folder whose capture files sift owns ("" owns none). A session of
// which nothing is stored is ErrNotFound; one whose work item is running
// is refused (its run would write the file again).
func (s *Store) PlanPurge(ctx context.Context, key review.SessionKey, logsRoot string) (PurgePlan, error) {
	p := PurgePlan{Session: key}
	wrap := func(err error) error { return fmt.Errorf("purge %s: %w", key, wrapError(err)) }
	var state sql.NullString
	if err := s.r.QueryRowContext(ctx, `SELECT state FROM work_items WHERE id = ?`, key.WorkItemID).Scan(&state); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return p, wrap(err)
	}
	if state.String == string(WorkItemRunning) {
		return p, fmt.Errorf("purge %s: work item %s is running; purge the session once its run has ended", key, key.WorkItemID)
	}
	paths, err := s.sessionPaths(ctx, key)
	if err != nil {
		return p, wrap(err)
	}
	for _, c := range []struct {
		n *int
		q string
	}{
		{&p.Summaries, `SELECT COUNT(*) FROM agent_stream_summaries WHERE work_item_id = ?1 AND file_name = ?2`},
		{&p.ReviewEvents, `SELECT COUNT(*) FROM review_events WHERE work_item_id = ?1 AND file_name = ?2`},
		{&p.IndexRows, `SELECT COUNT(*) FROM stream_files WHERE work_item_id = ?1 AND file_name = ?2`},
		{&p.CostRows, `SELECT COUNT(*) FROM work_item_costs WHERE work_item_id = ?1 AND file_name = ?2`},
		{&p.Decisions, `SELECT COUNT(*) FROM review_decisions WHERE work_item_id = ?1 AND file_name = ?2`},
		{&p.UsageRows, `SELECT COUNT(*) FROM usage_files WHERE work_item_id = ?1 AND file_name = ?2`},
	} {
		if err := s.r.QueryRowContext(ctx, c.q, key.WorkItemID, key.FileName).Scan(c.n); err != nil {
			return p, wrap(err)
		}
	}
	for _, path := range paths {
		f := PurgeFile{Path: path}
		f.Delete, f.Why = ownsCapture(logsRoot, key, path)
		p.Files = append(p.Files, f)
	}
	if p.Empty() {
		return p, fmt.Errorf("purge %s: %w", key, ErrNotFound)
	}
	return p, nil
}

// sessionPaths lists the stream files a session was read from, as the
// ingest index, the summary, its usage row and its invocations know them.
func (s *Store) sessionPaths(ctx context.Context, key review.SessionKey) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT path FROM stream_files WHERE work_item_id = ?1 AND file_name = ?2
		UNION SELECT path FROM agent_stream_summaries WHERE work_item_id = ?1 AND file_name = ?2
		UNION SELECT path FROM usage_files WHERE work_item_id = ?1 AND file_name = ?2
		UNION SELECT json_extract(raw_metadata_json, '$.path') FROM work_item_costs WHERE work_item_id = ?1 AND file_name = ?2
			AND COALESCE(json_extract(raw_metadata_json, '$.path'), '') != ''`, key.WorkItemID, key.FileName)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out, rows.Err()
}

// ownsCapture reports whether path is a file sift owns and may delete: a
// regular file (not a link) named as a capture,
// <logsRoot>/<workItem>/<phase>-<iteration>-<hex6>.jsonl, of the session
// being purged, in a work item folder that is not a link either. Otherwise
// it says why the file is kept.
func ownsCapture(logsRoot string, key review.SessionKey, path string) (bool, string) {
	if logsRoot == "" {
		return false, "no logs folder is configured"
	}
	root, err := filepath.Abs(logsRoot)
	if err != nil {
		return false, "the logs folder cannot be resolved"
	}
	path = filepath.Clean(path)
	if filepath.Dir(filepath.Dir(path)) != root {
		return false, "not in the logs folder " + root
	}
	if err := capture.CheckSweepRoot(root); err != nil {
		return false, err.Error()
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || !capture.IsLayoutPath(rel) {
		return false, "not named as a sift capture file"
	}
	if filepath.Base(path) != key.FileName || filepath.Base(filepath.Dir(path)) != key.WorkItemID ||
		strings.HasPrefix(key.WorkItemID, ".") {
		return false, "not in the session's work item folder"
	}
	if fi, err := os.Lstat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return false, "its work item folder is not a plain folder"
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, "already gone"
	case err != nil:
		return false, reason(err)
	case !fi.Mode().IsRegular():
		return false, "not a regular file"
	}
	return true, ""
}

// removeIn deletes one file by name inside dir, opened as an os.Root so
// that no link in the path is followed.
func (s *Store) removeIn(dir, name string) error {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	return s.remove(r, name)
}

// PurgeResult is what Purge removed.
type PurgeResult struct {
	PurgePlan
	// Deleted counts the files deleted; Kept the files left on disk and
	// remembered as purged.
	Deleted, Kept int
}

// Purge removes a session everywhere, as PlanPurge listed it: its summary,
// review events, ingest index rows, cost rows, decisions and usage rows in
// one transaction (with the search index's entries, purgeSearchIndex),
// every stream file remembered as purged, so that no import brings the
// session back; then it deletes the files sift owns and forgets those it
// deleted. A file that could not be deleted stays remembered and its error
// is returned, joined.
func (s *Store) Purge(ctx context.Context, p PurgePlan) (PurgeResult, error) {
	res := PurgeResult{PurgePlan: p}
	key := p.Session
	wrap := func(err error) error { return fmt.Errorf("purge %s: %w", key, wrapError(err)) }
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return res, wrap(err)
	}
	defer tx.Rollback()
	now := s.now().UnixMilli()
	for _, f := range p.Files {
		if _, err := tx.ExecContext(ctx, `INSERT INTO purged_files (path, work_item_id, file_name, purged_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (path) DO UPDATE SET purged_at = excluded.purged_at`, f.Path, key.WorkItemID, key.FileName, now); err != nil {
			return res, wrap(err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM stream_files WHERE path = ?`, f.Path); err != nil {
			return res, wrap(err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM usage_files WHERE path = ?`, f.Path); err != nil {
			return res, wrap(err)
		}
	}
	for _, q := range []string{
		`DELETE FROM review_events WHERE work_item_id = ?1 AND file_name = ?2`,
		`DELETE FROM agent_stream_summaries WHERE work_item_id = ?1 AND file_name = ?2`,
		`DELETE FROM stream_files WHERE work_item_id = ?1 AND file_name = ?2`,
		`DELETE FROM work_item_costs WHERE work_item_id = ?1 AND file_name = ?2`,
		`DELETE FROM decision_latest WHERE work_item_id = ?1 AND file_name = ?2`,
		`DELETE FROM review_decisions WHERE work_item_id = ?1 AND file_name = ?2`,
		`DELETE FROM review_claims WHERE work_item_id = ?1 AND file_name = ?2`,
		`DELETE FROM usage_files WHERE work_item_id = ?1 AND file_name = ?2`,
		// A work item with nothing left goes too.
		`DELETE FROM work_items WHERE id = ?1 AND state = 'terminal'
			AND NOT EXISTS (SELECT 1 FROM agent_stream_summaries WHERE work_item_id = ?1)
			AND NOT EXISTS (SELECT 1 FROM work_item_costs WHERE work_item_id = ?1)
			AND NOT EXISTS (SELECT 1 FROM stream_files WHERE work_item_id = ?1)`,
	} {
		if _, err := tx.ExecContext(ctx, q, key.WorkItemID, key.FileName); err != nil {
			return res, wrap(err)
		}
	}
	if err := purgeSearchIndex(ctx, tx, key); err != nil {
		return res, wrap(err)
	}
	if err := tx.Commit(); err != nil {
		return res, wrap(err)
	}
	var errs []error
	var deleted []string
	for i := range res.Files {
		f := &res.Files[i]
		if !f.Delete {
			res.Kept++
			continue
		}
		// Checked again right before the deletion: the file may have
		// been replaced by a link since the plan.
		if ok, why := ownsCapture(filepath.Dir(filepath.Dir(f.Path)), key, f.Path); !ok {
			f.Delete, f.Why = false, why
			res.Kept++
			continue
		}
		if err := s.removeIn(filepath.Dir(f.Path), filepath.Base(f.Path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			f.Err = errors.New(reason(err))
			errs = append(errs, fmt.Errorf("purge %s: delete %s: %s", key, f.Path, reason(err)))
			continue
		}
		res.Deleted++
		deleted = append(deleted, f.Path)
		os.Remove(filepath.Dir(f.Path)) // the work item folder, when left empty
	}
	for _, path := range deleted {
		if _, err := s.w.ExecContext(ctx, `DELETE FROM purged_files WHERE path = ?`, path); err != nil {
			errs = append(errs, wrap(err))
		}
	}
	return res, errors.Join(errs...)
}

// purgedFiles returns the paths imports skip.
func (s *Store) purgedFiles(ctx context.Context) (map[string]bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT path FROM purged_files`)
	if err != nil {
		return nil, fmt.Errorf("purged files: %w", wrapError(err))
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
