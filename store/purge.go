package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"

	"github.com/agentsift/sift/core/review"
)

// PurgeFile is a stream file of a purged session and what happens to it.
type PurgeFile struct {
	Path string
	// Delete is set for a file sift owns (a capture file inside the logs
	// folder, as PlanPurge's owns says): it is deleted. Any other file
	// stays on disk and is remembered as purged, so that imports skip it.
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

// Owns says whether sift owns a session's stream file and may delete it,
// and if not why (core/layout.OwnsFile, for the logs folder).
type Owns func(key review.SessionKey, path string) (bool, string)

// PlanPurge lists what Purge would remove for a session; owns says which
// of its files sift may delete (nil: none). A session of which nothing is
// stored is ErrNotFound; one whose work item is running is refused (its
// run would write the file again).
func (s *Store) PlanPurge(ctx context.Context, key review.SessionKey, owns Owns) (PurgePlan, error) {
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
		f := PurgeFile{Path: path, Why: "no logs folder is configured"}
		if owns != nil {
			f.Delete, f.Why = owns(key, path)
		}
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
		UNION SELECT `+s.d.jsonText("raw_metadata_json", "path")+` FROM work_item_costs WHERE work_item_id = ?1 AND file_name = ?2
			AND COALESCE(`+s.d.jsonText("raw_metadata_json", "path")+`, '') != ''`, key.WorkItemID, key.FileName)
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

// PurgeResult is what Purge removed.
type PurgeResult struct {
	PurgePlan
	// Deleted counts the files deleted; Kept the files left on disk and
	// remembered as purged.
	Deleted, Kept int
}

// Remove deletes a stream file sift owns (core/layout.RemoveOwned):
// deleted is false, with why, for a file it keeps after all.
type Remove func(key review.SessionKey, path string) (deleted bool, why string, err error)

// Purge removes a session everywhere, as PlanPurge listed it: its summary,
// review events, ingest index rows, cost rows, decisions and usage rows in
// one transaction (with the search index's entries, purgeSearchIndex),
// every stream file remembered as purged, so that no import brings the
// session back; then it deletes, with remove, the files sift owns and
// forgets those it deleted. A file that could not be deleted stays
// remembered and its error is returned, joined.
func (s *Store) Purge(ctx context.Context, p PurgePlan, remove Remove) (PurgeResult, error) {
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
		ok, why, err := remove(key, f.Path)
		switch {
		case err != nil:
			f.Err = err
			errs = append(errs, fmt.Errorf("purge %s: delete %s: %w", key, f.Path, err))
			continue
		case !ok:
			f.Delete, f.Why = false, why
			res.Kept++
			continue
		}
		res.Deleted++
		deleted = append(deleted, f.Path)
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
