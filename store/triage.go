package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/agentsift/sift/core/review"
)

// triageRankSQL is the triage rank of a summary row s, larger first
// (review.TriageFacts.TriageRank is the same rule in Go): its tier times
// four, plus two for a captured run (not an agent's own history: its agent
// kind does not end in review.HistorySuffix), plus one for an unknown
// cost. The tiers, worst first: a running session that waits (live_wait:
// an approval, a stall) while it waits; an undecided run that failed,
// died before its start or was interrupted (a stale run's row included);
// an undecided flagged session (a flag, or an open needs_followup decision
// on it, a turn or a tool call: flaggedSQL); the rest. Undecided is a
// review state of "" (no session-level decision, and not every flagged
// turn decided: state.go). The inbox's triage order is rank, then cost,
// largest first: one read of the index summaries_by_triage. Inside one
// rank the costs are all known or all unknown, so an unknown cost never
// sinks a run below a known one.
//
// The rank is stored (triage_rank), so every write that changes what it
// is made of recomputes it, after the review state, for the sessions it
// touched: a summary written (its flags, outcome and cost; an import's
// write transaction calls indexSessions), a decision or an undo recorded
// (Decide, Undo), a run's live row written or marked interrupted
// (live.go). Migration 0021 has the same expression, for the rows stored
// before.
const triageRankSQL = `(CASE WHEN s.live = 'running' AND s.live_wait != '' THEN 12
	WHEN s.review_state != '' THEN 0
	WHEN s.live != 'running' AND (s.live = 'interrupted' OR s.outcome IN ('failed', 'died_before_start', 'interrupted')) THEN 8
	WHEN ` + flaggedSQL + ` THEN 4 ELSE 0 END
	+ CASE WHEN s.agent_kind LIKE '%` + review.HistorySuffix + `' THEN 0 ELSE 2 END
	+ CASE WHEN s.estimated_usd IS NULL THEN 1 ELSE 0 END)`

// rankSQL recomputes the triage rank of one session. A rank that stays is
// not written: the summary's row is large, and most writes leave it.
const rankSQL = `UPDATE agent_stream_summaries AS s SET triage_rank = ` + triageRankSQL +
	` WHERE s.work_item_id = ? AND s.file_name = ? AND s.triage_rank != ` + triageRankSQL

// indexSessions recomputes what the inbox reads of the summaries a write
// transaction wrote besides their own columns: the review state (a
// rewritten summary may flag other turns), new_since, the triage rank and
// the search's tool names (toolnames.go). The import calls it in its
// transaction, after the summaries' rows.
func (s *Store) indexSessions(ctx context.Context, tx *sql.Tx, rows []*sessionRow) error {
	return s.d.indexSessions(ctx, tx, rows)
}

// indexSessions is Store.indexSessions on SQLite.
func (sqliteDialect) indexSessions(ctx context.Context, tx *sql.Tx, rows []*sessionRow) error {
	var sts [2]*sql.Stmt
	for i, q := range []string{indexRowSQL, filterRowSQL} {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("index sessions: %w", wrapError(err))
		}
		defer st.Close()
		sts[i] = st
	}
	for _, r := range rows {
		k := r.sum
		if _, err := sts[0].ExecContext(ctx, k.WorkItemID, k.FileName); err != nil {
			return fmt.Errorf("index %s/%s: %w", k.WorkItemID, k.FileName, wrapError(err))
		}
		if _, err := sts[1].ExecContext(ctx, k.WorkItemID, k.FileName, r.toolNames); err != nil {
			return fmt.Errorf("index %s/%s: %w", k.WorkItemID, k.FileName, wrapError(err))
		}
	}
	return nil
}

// indexRowSQL is stateSQL, newSinceSQL and rankSQL in one write of the
// row (an import writes each summary's once): the rank is of the new
// review state, which the row does not hold yet while the statement
// reads it. A row none of whose three changes is not written.
var indexRowSQL = `UPDATE agent_stream_summaries AS s SET review_state = ` + reviewStateSQL +
	`, new_since = ` + newSinceExpr + `, triage_rank = ` + rankOfStateSQL +
	` WHERE s.work_item_id = ? AND s.file_name = ? AND (s.review_state != ` + reviewStateSQL +
	` OR s.new_since != ` + newSinceExpr + ` OR s.triage_rank != ` + rankOfStateSQL + `)`

// rankOfStateSQL is triageRankSQL of the review state reviewStateSQL.
var rankOfStateSQL = strings.Replace(triageRankSQL, "s.review_state != ''", "("+reviewStateSQL+") != ''", 1)

// rankSession recomputes one session's review state and triage rank in a
// transaction that changed its decisions.
func (s *Store) rankSession(ctx context.Context, tx *sql.Tx, k review.SessionKey) error {
	return s.d.rankSession(ctx, tx, k)
}

// rankSession is Store.rankSession on SQLite: its Go functions compute
// the state (state.go).
func (sqliteDialect) rankSession(ctx context.Context, tx *sql.Tx, k review.SessionKey) error {
	for _, q := range []string{stateSQL, newSinceSQL, rankSQL} {
		if _, err := tx.ExecContext(ctx, q, k.WorkItemID, k.FileName); err != nil {
			return fmt.Errorf("rank %s: %w", k, wrapError(err))
		}
	}
	return nil
}
