package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/agentsift/sift/core/ingest"
)

// HoldsHistory reports whether the store holds sessions of an agent CLI's
// own history (phase interactive), or has recorded an import of the
// histories: the inbox then imports and watches the history folders
// unless the configuration says otherwise.
func (s *Store) HoldsHistory(ctx context.Context) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT CASE WHEN EXISTS (SELECT 1 FROM import_runs WHERE source = ?)
		OR EXISTS (SELECT 1 FROM stream_files WHERE phase = ?) THEN 1 ELSE 0 END`,
		string(ingest.SourceHistory), ingest.PhaseInteractive).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("holds history: %w", wrapError(err))
	}
	return n == 1, nil
}

// HistoryFolders returns the folders the history sessions record (their
// summaries' cwd), each once, in no order: what their projects are named
// by (review.ProjectLabels). It reads the summaries of history sessions
// only, found through the ingest index's small rows.
func (s *Store) HistoryFolders(ctx context.Context) ([]string, error) {
	cwd := s.d.jsonText("s.brief_json", "cwd")
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT `+cwd+` FROM agent_stream_summaries s
		WHERE s.work_item_id IN (SELECT work_item_id FROM stream_files WHERE phase = ?)
		AND s.phase = ? AND `+cwd+` IS NOT NULL`, ingest.PhaseInteractive, ingest.PhaseInteractive)
	if err != nil {
		return nil, fmt.Errorf("history folders: %w", wrapError(err))
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var f string
		if err := rows.Scan(&f); err != nil {
			return nil, fmt.Errorf("history folders: %w", wrapError(err))
		}
		if f != "" {
			out = append(out, f)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("history folders: %w", wrapError(err))
	}
	return out, nil
}

// ProjectFolders returns the folders sift knows projects by: those its
// history sessions record (HistoryFolders) and those `sift run` recorded
// for its runs, each once, in no order. A harness that keeps its history
// in the projects it ran in (Aider) is looked for there.
func (s *Store) ProjectFolders(ctx context.Context) ([]string, error) {
	out, err := s.HistoryFolders(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT cwd FROM work_item_costs WHERE cwd IS NOT NULL AND cwd <> ''`)
	if err != nil {
		return nil, fmt.Errorf("project folders: %w", wrapError(err))
	}
	defer rows.Close()
	for rows.Next() {
		var f string
		if err := rows.Scan(&f); err != nil {
			return nil, fmt.Errorf("project folders: %w", wrapError(err))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("project folders: %w", wrapError(err))
	}
	return out, nil
}
