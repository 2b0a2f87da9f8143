package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/summary"
)

// DecisionKind is what a reviewer decided about a session, turn or tool
// call.
type DecisionKind string

// The decisions a reviewer can record.
const (
	Reviewed      DecisionKind = "reviewed"
	NeedsFollowup DecisionKind = "needs_followup"
	Ignored       DecisionKind = "ignored"
)

// DecisionKinds lists the valid decisions.
func DecisionKinds() []DecisionKind { return []DecisionKind{Reviewed, NeedsFollowup, Ignored} }

// Valid reports whether k is one of DecisionKinds.
func (k DecisionKind) Valid() bool {
	switch k {
	case Reviewed, NeedsFollowup, Ignored:
		return true
	}
	return false
}

// IsOpen reports whether the decision leaves work to do: an open
// needs_followup decision keeps its session flagged.
func (k DecisionKind) IsOpen() bool { return k == NeedsFollowup }

// Decision is one decision event. Its target is the session
// (WorkItemID, FileName), narrowed to a turn by TurnID and to a tool call by
// ToolCallID. The current state of a target is its latest decision; earlier
// ones stay as history.
type Decision struct {
	// ID orders decisions; Decide sets it.
	ID         int64
	WorkItemID string
	FileName   string
	TurnID     string
	ToolCallID string
	Decision   DecisionKind
	Note       string
	ReviewerID string
	// CreatedAt is set by Decide when zero.
	CreatedAt time.Time
}

// Summary returns the decision in the summary JSON's form.
func (d Decision) Summary() *summary.Decision {
	return &summary.Decision{
		Decision: string(d.Decision), Note: d.Note, ReviewerID: d.ReviewerID,
		CreatedAt: d.CreatedAt, TurnID: d.TurnID, ToolCallID: d.ToolCallID,
	}
}

// Decide appends a decision. The session must exist (ErrNotFound
// otherwise), and so must the turn and tool call it names, the tool call
// within the turn when both are given (ErrUnknownTarget, which also
// matches ErrNotFound); nothing is written otherwise. The note is stored
// redacted (core/redact). It returns only once the decision is durable: the commit runs
// with synchronous=FULL, so a decision Decide acknowledged survives kill -9
// of the process and a power cut right after.
func (s *Store) Decide(ctx context.Context, d Decision) error {
	if !d.Decision.Valid() {
		return fmt.Errorf("decide: %q is not a decision (want %s)", d.Decision, joinKinds())
	}
	if d.WorkItemID == "" || d.FileName == "" {
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
		d.WorkItemID, d.FileName).Scan(&turns, &calls)
	if err != nil {
		return fmt.Errorf("decide %s/%s: %w", d.WorkItemID, d.FileName, wrapError(err))
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
		d.WorkItemID, d.FileName, d.TurnID, d.ToolCallID, string(d.Decision), d.Note, d.ReviewerID, d.CreatedAt.UnixMilli())
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
		d.WorkItemID, d.FileName, d.TurnID, d.ToolCallID, id, string(d.Decision)); err != nil {
		return fmt.Errorf("decide: %w", wrapError(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("decide: %w", wrapError(err))
	}
	return nil
}

func joinKinds() string {
	var ks []string
	for _, k := range DecisionKinds() {
		ks = append(ks, string(k))
	}
	return strings.Join(ks, ", ")
}

const decisionCols = `d.id, d.work_item_id, d.file_name, d.turn_id, d.tool_call_id, d.decision, d.note, d.reviewer_id, d.created_at`

func scanDecision(sc interface{ Scan(...any) error }) (Decision, error) {
	var d Decision
	var kind string
	var created sql.NullInt64
	err := sc.Scan(&d.ID, &d.WorkItemID, &d.FileName, &d.TurnID, &d.ToolCallID, &kind, &d.Note, &d.ReviewerID, &created)
	d.Decision = DecisionKind(kind)
	d.CreatedAt = fromMs(created)
	return d, err
}

// Decisions returns every decision recorded on a session (its turns and
// tool calls included), oldest first: the history.
func (s *Store) Decisions(ctx context.Context, workItemID, fileName string) ([]Decision, error) {
	return s.queryDecisions(ctx, `SELECT `+decisionCols+` FROM review_decisions d
		WHERE d.work_item_id = ? AND d.file_name = ? ORDER BY d.id`, workItemID, fileName)
}

// LatestDecisions returns the current decision of every target of a
// session (the session itself, turns, tool calls): for each, its latest
// decision. The session-level one comes first.
func (s *Store) LatestDecisions(ctx context.Context, workItemID, fileName string) ([]Decision, error) {
	return s.queryDecisions(ctx, `SELECT `+decisionCols+` FROM decision_latest l
		JOIN review_decisions d ON d.id = l.decision_id
		WHERE l.work_item_id = ? AND l.file_name = ?
		ORDER BY l.turn_id != '' OR l.tool_call_id != '', l.turn_id, l.tool_call_id`, workItemID, fileName)
}

func (s *Store) queryDecisions(ctx context.Context, q string, args ...any) ([]Decision, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("decisions: %w", wrapError(err))
	}
	defer rows.Close()
	var out []Decision
	for rows.Next() {
		d, err := scanDecision(rows)
		if err != nil {
			return nil, fmt.Errorf("decisions: %w", err)
		}
		out = append(out, d)
	}
	return out, wrapError(rows.Err())
}
