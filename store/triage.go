package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agentsift/sift/core/review"
)

// triageRankSQL is the triage rank of a summary row s: 1 for a flagged
// session (a flag, or an open needs_followup decision on it, a turn or a
// tool call) with no session-level decision, 0 for every other. The
// inbox's triage order is rank, then cost, largest first: one read of the
// index summaries_by_triage.
//
// The rank is stored (triage_rank), so every write that changes what it
// is made of recomputes it for the sessions it touched: a summary written
// (its flags and cost; an import's write transaction calls
// indexSessions) and a decision recorded (Decide). Migration 0007 has the
// same expression, for the rows stored before the column.
const triageRankSQL = `CASE WHEN NOT EXISTS (SELECT 1 FROM decision_latest l
		WHERE l.work_item_id = s.work_item_id AND l.file_name = s.file_name AND l.turn_id = '' AND l.tool_call_id = '')
	AND ` + flaggedSQL + ` THEN 1 ELSE 0 END`

// rankSQL recomputes the triage rank of one session. A rank that stays is
// not written: the summary's row is large, and most writes leave it.
const rankSQL = `UPDATE agent_stream_summaries AS s SET triage_rank = ` + triageRankSQL +
	` WHERE s.work_item_id = ? AND s.file_name = ? AND s.triage_rank != ` + triageRankSQL

// indexSessions recomputes what the inbox reads of the summaries a write
// transaction wrote besides their own columns: the triage rank and the
// search's tool names (toolnames.go). The import calls it in its
// transaction, after the summaries' rows.
func indexSessions(ctx context.Context, tx *sql.Tx, rows []*sessionRow) error {
	var sts [2]*sql.Stmt
	for i, q := range []string{rankSQL, filterRowSQL} {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("index sessions: %w", wrapError(err))
		}
		defer st.Close()
		sts[i] = st
	}
	for _, r := range rows {
		for _, st := range sts {
			if _, err := st.ExecContext(ctx, r.sum.WorkItemID, r.sum.FileName); err != nil {
				return fmt.Errorf("index %s/%s: %w", r.sum.WorkItemID, r.sum.FileName, wrapError(err))
			}
		}
	}
	return nil
}

// rankSession recomputes one session's triage rank in a transaction that
// changed its decisions.
func rankSession(ctx context.Context, tx *sql.Tx, k review.SessionKey) error {
	if _, err := tx.ExecContext(ctx, rankSQL, k.WorkItemID, k.FileName); err != nil {
		return fmt.Errorf("rank %s: %w", k, wrapError(err))
	}
	return nil
}
