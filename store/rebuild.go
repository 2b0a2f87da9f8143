package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"
)

// StartRebuild implements ingest.Rebuilder. It drops everything derived
// from the stream files (summaries, review events and the cost rows
// imports inserted) and returns the files of the ingest index, which the
// rebuild reads again with the files of its roots. Decisions, recorded
// invocations and work items are kept; until the rebuild has completed
// (FinishRebuild), sweeps leave decisions alone even though their
// summaries are missing.
//
// A rebuild is safe to kill at any point. The ingest index is what
// remembers the files of every root ever imported, so it is not dropped
// up front: its rows are marked unread (size -1) and a row is only
// forgotten once a rebuild has run to its end without reading that file
// again (the file is gone or cannot be read). A rebuild cancelled or
// killed midway leaves the unread rows behind; the next rebuild finds
// every file through them, and a plain import re-reads those of its roots.
func (s *Store) StartRebuild(ctx context.Context) ([]string, error) {
	known, err := s.knownFiles(ctx)
	if err != nil {
		return nil, err
	}
	return known, s.beginRebuild(ctx)
}

// FinishRebuild implements ingest.Rebuilder: once a rebuild has run to its
// end, it forgets the files it could not read again (but not those of a
// running work item, which the import deferred) and lets sweeps touch
// decisions again.
func (s *Store) FinishRebuild(ctx context.Context) error {
	for _, q := range []string{
		`DELETE FROM stream_files WHERE size = -1 AND work_item_id NOT IN (SELECT id FROM work_items WHERE state = 'running')`,
		`DELETE FROM meta WHERE key = '` + metaRebuilding + `'`,
	} {
		if _, err := s.w.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("rebuild: %w", wrapError(err))
		}
	}
	return nil
}

// beginRebuild sets the rebuilding mark, drops the derived rows and marks
// every file of the ingest index unread.
func (s *Store) beginRebuild(ctx context.Context) error {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("rebuild: %w", wrapError(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, metaRebuilding, strconv.FormatInt(s.now().UnixMilli(), 10)); err != nil {
		return fmt.Errorf("rebuild: %w", wrapError(err))
	}
	if err := s.d.resetSearchIndex(ctx, tx); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	for _, q := range []string{
		`DELETE FROM review_events`,
		`DELETE FROM agent_stream_summaries`,
		`UPDATE stream_files SET size = -1`,
		`DELETE FROM work_item_costs WHERE ` + s.d.jsonText("raw_metadata_json", "source") + ` = '` + SourceStreamAnalyser + `'`,
		`UPDATE work_items SET state = 'terminal' WHERE state = 'running' AND NOT EXISTS (SELECT 1 FROM work_item_costs c
			WHERE c.work_item_id = work_items.id AND c.ended_at IS NULL)`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("rebuild: %w", wrapError(err))
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("rebuild: %w", wrapError(err))
	}
	return nil
}

// knownFiles lists the ingest index's paths.
func (s *Store) knownFiles(ctx context.Context) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT path FROM stream_files ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("known files: %w", wrapError(err))
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
	return out, wrapError(rows.Err())
}

// StreamFile is one row of the ingest index: a stream file and the
// session it was read into.
type StreamFile struct {
	Path       string
	WorkItemID string
	FileName   string
	Phase      string
	Iteration  *int
	AgentKind  string
	Size       int64
	ModTime    time.Time
	ImportedAt time.Time
}

// StreamFiles returns the ingest index rows of a work item (every work
// item when empty), ordered by work item and file name.
func (s *Store) StreamFiles(ctx context.Context, workItemID string) ([]StreamFile, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT path, work_item_id, file_name, phase, iteration, agent_kind, size, mtime, imported_at
		FROM stream_files WHERE ? = '' OR work_item_id = ? ORDER BY work_item_id, file_name, path`, workItemID, workItemID)
	if err != nil {
		return nil, fmt.Errorf("stream files: %w", wrapError(err))
	}
	defer rows.Close()
	var out []StreamFile
	for rows.Next() {
		var f StreamFile
		var it, mt, imp sql.NullInt64
		if err := rows.Scan(&f.Path, &f.WorkItemID, &f.FileName, &f.Phase, &it, &f.AgentKind, &f.Size, &mt, &imp); err != nil {
			return nil, err
		}
		if it.Valid {
			v := int(it.Int64)
			f.Iteration = &v
		}
		f.ModTime, f.ImportedAt = fromMs(mt), fromMs(imp)
		out = append(out, f)
	}
	return out, wrapError(rows.Err())
}
