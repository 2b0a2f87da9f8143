package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// LiveRun is what a running `sift run` knows of its session so far
// (ingest.Tail): the summary of its lines so far, the stream file, the
// tool it is in and what it waits for.
type LiveRun struct {
	Summary *summary.Summary
	Path    string
	Tool    string
	Wait    review.LiveWait
}

// liveSQL marks a session's row running, with its tool and wait.
const liveSQL = `UPDATE agent_stream_summaries SET live = 'running', live_tool = ?, live_wait = ?
	WHERE work_item_id = ? AND file_name = ?`

// WriteLive writes the row of a session whose stream is still being
// written: its summary so far, marked running (review.LiveRunning), so
// that the inbox shows it with its current tool, and ranked first in the
// triage order while it waits. The run calls it at most once a second;
// the import that reads the file once the run ended (CompleteWorkItem)
// rewrites the row whole and clears the mark. The work item must be
// recorded (RecordInvocation) and running.
func (s *Store) WriteLive(ctx context.Context, lr LiveRun) error {
	sum := lr.Summary
	if sum == nil || sum.WorkItemID == "" || sum.FileName == "" {
		return errors.New("write live run: work item and file name are required")
	}
	path, err := filepath.Abs(lr.Path)
	if err != nil {
		return fmt.Errorf("write live run: %w", err)
	}
	row, err := newSessionRow(&ingest.Session{File: ingest.File{Path: path, MTime: s.now().UnixMilli()}, Summary: sum}, nil)
	if err != nil {
		return fmt.Errorf("write live run: %w", err)
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("write live run: %w", wrapError(err))
	}
	defer tx.Rollback()
	var state string
	if err := tx.QueryRowContext(ctx, `SELECT state FROM work_items WHERE id = ?`, sum.WorkItemID).Scan(&state); err != nil {
		return fmt.Errorf("write live run %s: %w", sum.WorkItemID, wrapError(err))
	}
	if state != string(WorkItemRunning) {
		// The run ended meanwhile: its file is read whole instead.
		return nil
	}
	if _, err := tx.ExecContext(ctx, upsertSummarySQL(), append(row.args(s.now().UnixMilli()), s.host)...); err != nil {
		return fmt.Errorf("write live run: %w", wrapError(err))
	}
	if _, err := tx.ExecContext(ctx, liveSQL, lr.Tool, string(lr.Wait), sum.WorkItemID, sum.FileName); err != nil {
		return fmt.Errorf("write live run: %w", wrapError(err))
	}
	if err := s.indexSessions(ctx, tx, []*sessionRow{row}); err != nil {
		return fmt.Errorf("write live run: %w", err)
	}
	return wrapError(tx.Commit())
}

// interruptSQL marks the row of a stale run's stream file interrupted;
// its triage rank follows.
const interruptSQL = `UPDATE agent_stream_summaries SET live = 'interrupted', live_tool = '', live_wait = ''
	WHERE path = ? AND live = 'running' RETURNING work_item_id, file_name`

// interrupt marks the row of a stale run's file interrupted.
func (s *Store) interrupt(ctx context.Context, file string) error {
	if file == "" {
		return nil
	}
	var k review.SessionKey
	err := s.w.QueryRowContext(ctx, interruptSQL, file).Scan(&k.WorkItemID, &k.FileName)
	if err != nil {
		if errors.Is(wrapError(err), ErrNotFound) {
			return nil
		}
		return fmt.Errorf("interrupt %s: %w", file, wrapError(err))
	}
	if _, err := s.w.ExecContext(ctx, rankSQL, k.WorkItemID, k.FileName); err != nil {
		return fmt.Errorf("interrupt %s: %w", k, wrapError(err))
	}
	return nil
}
