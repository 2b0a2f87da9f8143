package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
)

// Decide appends a decision. The session must exist (ErrNotFound
// otherwise), and so must the turn and tool call it names, the tool call
// within the turn when both are given (ErrUnknownTarget, which also
// matches ErrNotFound); nothing is written otherwise. The note is stored
// redacted (core/redact), and the session's triage rank is recomputed in
// the same transaction. It returns only once the decision is durable: the
// commit runs with synchronous=FULL, so a decision Decide acknowledged
// survives kill -9 of the process and a power cut right after.
func (s *Store) Decide(ctx context.Context, d review.Decision) error {
	if !d.Kind.Valid() {
		return fmt.Errorf("decide: %q is not a decision (want %s)", d.Kind, joinKinds())
	}
	k := d.Session
	if k.WorkItemID == "" || k.FileName == "" {
		return fmt.Errorf("decide: session not given")
	}
	if d.CreatedAt.IsZero() {
		d.CreatedAt = s.now()
	}
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return fmt.Errorf("decide: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA synchronous=FULL"); err != nil {
		return fmt.Errorf("decide: %w", wrapError(err))
	}
	defer conn.ExecContext(context.Background(), "PRAGMA synchronous=NORMAL")
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("decide: %w", wrapError(err))
	}
	defer tx.Rollback()
	var turns, calls []byte
	err = tx.QueryRowContext(ctx, `SELECT turns_json, tool_calls_json FROM agent_stream_summaries WHERE work_item_id = ? AND file_name = ?`,
		k.WorkItemID, k.FileName).Scan(&turns, &calls)
	if err != nil {
		return fmt.Errorf("decide %s: %w", k, wrapError(err))
	}
	if err := checkTarget(d, turns, calls); err != nil {
		return err
	}
	// A note is free text a reviewer may paste a secret into; it is
	// kept like everything else sift stores: redacted.
	d.Note = redact.String(d.Note)
	res, err := tx.ExecContext(ctx, `INSERT INTO review_decisions
		(work_item_id, file_name, turn_id, tool_call_id, decision, note, reviewer_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		k.WorkItemID, k.FileName, d.TurnID, d.ToolCallID, string(d.Kind), d.Note, d.Reviewer, d.CreatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("decide: %w", wrapError(err))
	}
	id, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("decide: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO decision_latest
		(work_item_id, file_name, turn_id, tool_call_id, decision_id, decision) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT DO UPDATE SET decision_id = excluded.decision_id, decision = excluded.decision`,
		k.WorkItemID, k.FileName, d.TurnID, d.ToolCallID, id, string(d.Kind)); err != nil {
		return fmt.Errorf("decide: %w", wrapError(err))
	}
	if err := rankSession(ctx, tx, k); err != nil {
		return fmt.Errorf("decide: %w", err)
	}
	if err := indexNote(ctx, tx, d); err != nil {
		return fmt.Errorf("decide: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("decide: %w", wrapError(err))
	}
	return nil
}

func joinKinds() string {
	var ks []string
	for _, k := range review.DecisionKinds() {
		ks = append(ks, string(k))
	}
	return strings.Join(ks, ", ")
}

const decisionCols = `d.id, d.work_item_id, d.file_name, d.turn_id, d.tool_call_id, d.decision, d.note, d.reviewer_id, d.created_at`

func scanDecision(sc interface{ Scan(...any) error }) (review.Decision, error) {
	var d review.Decision
	var kind string
	var created sql.NullInt64
	err := sc.Scan(&d.ID, &d.Session.WorkItemID, &d.Session.FileName, &d.TurnID, &d.ToolCallID, &kind, &d.Note, &d.Reviewer, &created)
	d.Kind = review.DecisionKind(kind)
	d.CreatedAt = fromMs(created)
	return d, err
}

// Decisions returns every decision recorded on a session (its turns and
// tool calls included), oldest first: the history.
func (s *Store) Decisions(ctx context.Context, k review.SessionKey) ([]review.Decision, error) {
	return s.queryDecisions(ctx, `SELECT `+decisionCols+` FROM review_decisions d
		WHERE d.work_item_id = ? AND d.file_name = ? ORDER BY d.id`, k.WorkItemID, k.FileName)
}

// LatestDecisions returns the current decision of every target of a
// session (the session itself, turns, tool calls): for each, its latest
// decision. The session-level one comes first.
func (s *Store) LatestDecisions(ctx context.Context, k review.SessionKey) ([]review.Decision, error) {
	return s.queryDecisions(ctx, `SELECT `+decisionCols+` FROM decision_latest l
		JOIN review_decisions d ON d.id = l.decision_id
		WHERE l.work_item_id = ? AND l.file_name = ?
		ORDER BY l.turn_id != '' OR l.tool_call_id != '', l.turn_id, l.tool_call_id`, k.WorkItemID, k.FileName)
}

func (s *Store) queryDecisions(ctx context.Context, q string, args ...any) ([]review.Decision, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("decisions: %w", wrapError(err))
	}
	defer rows.Close()
	var out []review.Decision
	for rows.Next() {
		d, err := scanDecision(rows)
		if err != nil {
			return nil, fmt.Errorf("decisions: %w", err)
		}
		out = append(out, d)
	}
	return out, wrapError(rows.Err())
}
