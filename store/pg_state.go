package store

import (
	"bytes"
	"context"
	"database/sql"
	stdjson "encoding/json"
	"fmt"

	"github.com/agentsift/sift/core/review"
)

// On SQLite the review state and the tool names of a session are SQL
// functions written in Go (sift_review_state, sift_tool_names) that the
// statements of state.go and toolnames.go call. PostgreSQL cannot call
// into sift, so there the store computes both in Go, with the same
// functions (reviewState, toolNames), and writes them: per session for a
// decision, per batch for an import, whose sessions mostly have no
// decision at all.

// rankSession is Store.rankSession on PostgreSQL: the session's review state,
// computed here, then its new_since and triage rank by the shared
// statements.
func (pgDialect) rankSession(ctx context.Context, tx *sql.Tx, k review.SessionKey) error {
	if err := pgWriteState(ctx, tx, k); err != nil {
		return fmt.Errorf("rank %s: %w", k, err)
	}
	for _, q := range []string{newSinceSQL, rankSQL} {
		if _, err := tx.ExecContext(ctx, q, k.WorkItemID, k.FileName); err != nil {
			return fmt.Errorf("rank %s: %w", k, wrapError(err))
		}
	}
	return nil
}

// pgWriteState recomputes and writes one session's review state, from
// the current decisions whose reviewer had seen all of it (seenAllSQL).
func pgWriteState(ctx context.Context, tx *sql.Tx, k review.SessionKey) error {
	rows, err := tx.QueryContext(ctx, `SELECT l.turn_id, l.tool_call_id, l.decision FROM decision_latest l
		JOIN agent_stream_summaries s ON s.work_item_id = l.work_item_id AND s.file_name = l.file_name
		WHERE l.work_item_id = ? AND l.file_name = ? AND `+seenAllSQL+` ORDER BY l.turn_id, l.tool_call_id`,
		k.WorkItemID, k.FileName)
	if err != nil {
		return wrapError(err)
	}
	var cur [][3]string
	for rows.Next() {
		var c [3]string
		if err := rows.Scan(&c[0], &c[1], &c[2]); err != nil {
			rows.Close()
			return wrapError(err)
		}
		cur = append(cur, c)
	}
	if err := rows.Close(); err != nil {
		return wrapError(err)
	}
	state := ""
	if len(cur) > 0 {
		var turns, calls []byte
		err := tx.QueryRowContext(ctx, `SELECT turns_json, tool_calls_json FROM agent_stream_summaries
			WHERE work_item_id = ? AND file_name = ?`, k.WorkItemID, k.FileName).Scan(&turns, &calls)
		if err == sql.ErrNoRows {
			return nil
		}
		if err != nil {
			return wrapError(err)
		}
		if state, err = reviewState(turns, calls, cur); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE agent_stream_summaries SET review_state = ?
		WHERE work_item_id = ? AND file_name = ? AND review_state != ?`, state, k.WorkItemID, k.FileName, state)
	return wrapError(err)
}

// indexSessions is Store.indexSessions on PostgreSQL: the review state of
// the written sessions that have decisions (the others' is empty), their
// triage ranks and their tool names, in a few statements per batch.
func (pgDialect) indexSessions(ctx context.Context, tx *sql.Tx, rows []*sessionRow) error {
	wis := make([]string, len(rows))
	files := make([]string, len(rows))
	names := make([]string, len(rows))
	for i, r := range rows {
		wis[i], files[i], names[i] = r.sum.WorkItemID, r.sum.FileName, r.toolNames
	}
	const batch = `unnest(?::text[], ?::text[]) AS k(w, f)`
	decided, err := tx.QueryContext(ctx, `SELECT DISTINCT l.work_item_id, l.file_name FROM decision_latest l
		JOIN `+batch+` ON l.work_item_id = k.w AND l.file_name = k.f`, wis, files)
	if err != nil {
		return fmt.Errorf("index sessions: %w", wrapError(err))
	}
	var keys []review.SessionKey
	for decided.Next() {
		var k review.SessionKey
		if err := decided.Scan(&k.WorkItemID, &k.FileName); err != nil {
			decided.Close()
			return fmt.Errorf("index sessions: %w", wrapError(err))
		}
		keys = append(keys, k)
	}
	if err := decided.Close(); err != nil {
		return fmt.Errorf("index sessions: %w", wrapError(err))
	}
	for _, k := range keys {
		if err := pgWriteState(ctx, tx, k); err != nil {
			return fmt.Errorf("index %s: %w", k, err)
		}
	}
	for _, q := range []string{
		`UPDATE agent_stream_summaries AS s SET review_state = '' FROM ` + batch + `
			WHERE s.work_item_id = k.w AND s.file_name = k.f AND s.review_state != ''
			AND NOT EXISTS (SELECT 1 FROM decision_latest l WHERE l.work_item_id = k.w AND l.file_name = k.f)`,
		`UPDATE agent_stream_summaries AS s SET new_since = ` + newSinceExpr + ` FROM ` + batch + `
			WHERE s.work_item_id = k.w AND s.file_name = k.f AND s.new_since != ` + newSinceExpr,
		`UPDATE agent_stream_summaries AS s SET triage_rank = ` + triageRankSQL + ` FROM ` + batch + `
			WHERE s.work_item_id = k.w AND s.file_name = k.f AND s.triage_rank != ` + triageRankSQL,
	} {
		if _, err := tx.ExecContext(ctx, q, wis, files); err != nil {
			return fmt.Errorf("index sessions: %w", wrapError(err))
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO session_filter (work_item_id, file_name, tool_names)
		SELECT * FROM unnest(?::text[], ?::text[], ?::text[])
		ON CONFLICT (work_item_id, file_name) DO UPDATE SET tool_names = excluded.tool_names`, wis, files, names); err != nil {
		return fmt.Errorf("index sessions: %w", wrapError(err))
	}
	return nil
}

// pgMarkStaleSQL is ReapStaleRuns's update of a run whose process is gone,
// in PostgreSQL's JSON functions.
const pgMarkStaleSQL = `UPDATE work_item_costs SET ended_at = GREATEST(COALESCE(started_at, ?1::bigint), ?1::bigint),
	raw_metadata_json = (raw_metadata_json::jsonb || jsonb_build_object('stale', true,
		'staleReason', 'process ' || ?2::text || ' is gone: sift run was killed before it recorded the end',
		'staleAt', ?3::bigint))::text
	WHERE id = ?4 AND ended_at IS NULL`

// pgCompactJSON returns JSON that PostgreSQL's jsonb wrote ({"a": 1, "b":
// 2}) without the blanks between tokens, as SQLite's JSON functions write
// it. (jsonb also orders an object's keys its own way: the order of a
// metadata object's keys is not kept.)
func pgCompactJSON(s string) string {
	var b bytes.Buffer
	if err := stdjson.Compact(&b, []byte(s)); err != nil {
		return s
	}
	return b.String()
}
