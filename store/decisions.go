package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/agentsift/sift/core/review"
)

// Decide appends a decision. The session must exist (ErrNotFound
// otherwise), and so must the turn and tool call it names, the tool call
// within the turn when both are given (ErrUnknownTarget, which also
// matches ErrNotFound); nothing is written otherwise. The note is stored
// redacted (core/redact), and the session's review state and triage rank
// are recomputed in the same transaction; a decision on the session itself
// ends its reviewer's claim on it (Claim). It returns only once the decision is durable: the
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
	stamp := d.CreatedAt.IsZero()
	return s.durable(ctx, "decide", func(tx *sql.Tx) error {
		if err := s.lockSession(ctx, tx, k); err != nil {
			return fmt.Errorf("decide %s: %w", k, err)
		}
		// Stamped once the session is locked: of two reviewers deciding
		// at once, the one who commits last decided last.
		if stamp {
			d.CreatedAt = s.now()
		}
		var turns, calls []byte
		var lines int
		err := tx.QueryRowContext(ctx, `SELECT turns_json, tool_calls_json, line_count FROM agent_stream_summaries
			WHERE work_item_id = ? AND file_name = ?`, k.WorkItemID, k.FileName).Scan(&turns, &calls, &lines)
		if err != nil {
			return fmt.Errorf("decide %s: %w", k, wrapError(err))
		}
		if err := checkTarget(d, turns, calls); err != nil {
			return err
		}
		// The reviewer has seen the session as it is stored now, unless
		// the decision says how far (a decision read back from an export).
		if d.SeenLine <= 0 {
			d.SeenLine = lines
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO review_decisions
			(work_item_id, file_name, turn_id, tool_call_id, decision, note, reviewer_id, created_at, seen_line)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			k.WorkItemID, k.FileName, d.TurnID, d.ToolCallID, string(d.Kind), d.Note, d.Reviewer, d.CreatedAt.UnixMilli(), d.SeenLine).Scan(&d.ID); err != nil {
			return fmt.Errorf("decide: %w", wrapError(err))
		}
		// The target's current decision is its latest by time: the new
		// one, unless one made later is stored already.
		if err := s.relatestTarget(ctx, tx, k, d.TurnID, d.ToolCallID); err != nil {
			return fmt.Errorf("decide: %w", err)
		}
		if err := releaseByDecision(ctx, tx, d); err != nil {
			return fmt.Errorf("decide: %w", err)
		}
		if err := s.rankSession(ctx, tx, k); err != nil {
			return fmt.Errorf("decide: %w", err)
		}
		if err := indexNote(ctx, tx, d, s.d); err != nil {
			return fmt.Errorf("decide: %w", err)
		}
		return nil
	})
}

// durable runs fn in a write transaction whose commit runs with
// synchronous=FULL: once it returns nil, what fn wrote survives kill -9
// of the process and a power cut right after.
func (s *Store) durable(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer conn.Close()
	if _, err := s.sqliteExec(ctx, conn, "PRAGMA synchronous=FULL"); err != nil {
		return fmt.Errorf("%s: %w", what, wrapError(err))
	}
	defer s.sqliteExec(context.Background(), conn, "PRAGMA synchronous=NORMAL")
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", what, wrapError(err))
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s: %w", what, wrapError(err))
	}
	return nil
}

// pointLatest points a target's decision_latest row at its current
// decision d, or removes it when d is nil (every decision on the target
// was withdrawn).
func pointLatest(ctx context.Context, tx *sql.Tx, k review.SessionKey, turn, call string, d *review.Decision) error {
	if d == nil {
		_, err := tx.ExecContext(ctx, `DELETE FROM decision_latest WHERE work_item_id = ? AND file_name = ? AND turn_id = ? AND tool_call_id = ?`,
			k.WorkItemID, k.FileName, turn, call)
		return wrapError(err)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO decision_latest
		(work_item_id, file_name, turn_id, tool_call_id, decision_id, decision, seen_line, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (work_item_id, file_name, turn_id, tool_call_id) DO UPDATE SET decision_id = excluded.decision_id,
		decision = excluded.decision, seen_line = excluded.seen_line, decided_at = excluded.decided_at`,
		k.WorkItemID, k.FileName, turn, call, d.ID, string(d.Kind), d.SeenLine, d.CreatedAt.UnixMilli())
	return wrapError(err)
}

// currentOf is the current decision of one target of a history
// (review.Current), nil when it has none.
func currentOf(hist []review.Decision, turn, call string) *review.Decision {
	for _, c := range review.Current(hist) {
		if c.TurnID == turn && c.ToolCallID == call {
			return &c
		}
	}
	return nil
}

// relatestTarget points one target's decision_latest row at its current
// decision, read from the session's history.
func (s *Store) relatestTarget(ctx context.Context, tx *sql.Tx, k review.SessionKey, turn, call string) error {
	hist, err := queryDecisions(ctx, tx, historySQL, k.WorkItemID, k.FileName)
	if err != nil {
		return err
	}
	return pointLatest(ctx, tx, k, turn, call, currentOf(hist, turn, call))
}

// ErrNothingToUndo is Undo's error when every decision on the session is
// withdrawn already, or it has none: review.ErrNothingToUndo.
var ErrNothingToUndo = review.ErrNothingToUndo

// Undo withdraws the latest decision on a session (its turns and tool
// calls included) that is not withdrawn yet (review.Undoable), by
// appending an undo that supersedes it: the decision's target goes back to
// its decision before, or to undecided, and the session's review state
// and triage rank follow. It returns the decision it withdrew; with none
// left, ErrNothingToUndo. Like Decide, it returns once the undo is
// durable.
func (s *Store) Undo(ctx context.Context, k review.SessionKey, reviewer string) (review.Decision, error) {
	var undone review.Decision
	err := s.durable(ctx, "undo", func(tx *sql.Tx) error {
		if err := s.lockSession(ctx, tx, k); err != nil {
			return fmt.Errorf("undo %s: %w", k, err)
		}
		hist, err := queryDecisions(ctx, tx, historySQL, k.WorkItemID, k.FileName)
		if err != nil {
			return fmt.Errorf("undo %s: %w", k, err)
		}
		d := review.Undoable(hist)
		if d == nil {
			return fmt.Errorf("undo %s: %w", k, ErrNothingToUndo)
		}
		undone = *d
		u := review.Decision{Session: k, Kind: review.Undone, Supersedes: d.ID, TurnID: d.TurnID, ToolCallID: d.ToolCallID,
			Reviewer: reviewer, CreatedAt: s.now()}
		if err := tx.QueryRowContext(ctx, `INSERT INTO review_decisions
			(work_item_id, file_name, turn_id, tool_call_id, decision, note, reviewer_id, created_at, supersedes)
			VALUES (?, ?, ?, ?, ?, '', ?, ?, ?) RETURNING id`,
			k.WorkItemID, k.FileName, u.TurnID, u.ToolCallID, string(d.Kind), u.Reviewer, u.CreatedAt.UnixMilli(), d.ID).Scan(&u.ID); err != nil {
			return fmt.Errorf("undo: %w", wrapError(err))
		}
		if err := pointLatest(ctx, tx, k, d.TurnID, d.ToolCallID, currentOf(append(hist, u), d.TurnID, d.ToolCallID)); err != nil {
			return fmt.Errorf("undo: %w", err)
		}
		return s.rankSession(ctx, tx, k)
	})
	return undone, err
}

func joinKinds() string {
	var ks []string
	for _, k := range review.DecisionKinds() {
		ks = append(ks, string(k))
	}
	return strings.Join(ks, ", ")
}

const decisionCols = `d.id, d.work_item_id, d.file_name, d.turn_id, d.tool_call_id, d.decision, d.note, d.reviewer_id, d.created_at, d.supersedes, d.seen_line`

// scanDecision reads decisionCols. An undo's row repeats the kind it
// withdrew; its kind is review.Undone.
func scanDecision(sc interface{ Scan(...any) error }) (review.Decision, error) {
	var d review.Decision
	var kind string
	var created sql.NullInt64
	err := sc.Scan(&d.ID, &d.Session.WorkItemID, &d.Session.FileName, &d.TurnID, &d.ToolCallID, &kind, &d.Note, &d.Reviewer, &created, &d.Supersedes, &d.SeenLine)
	d.Kind = review.DecisionKind(kind)
	if d.Supersedes != 0 {
		d.Kind = review.Undone
	}
	d.CreatedAt = fromMs(created)
	return d, err
}

// historySQL selects a session's decisions, oldest first: by when they
// were made, then by id (review.Decision.Later).
const historySQL = `SELECT ` + decisionCols + ` FROM review_decisions d
	WHERE d.work_item_id = ? AND d.file_name = ? ORDER BY d.created_at, d.id`

// Decisions returns every decision recorded on a session (its turns and
// tool calls included), oldest first: the history, undos among them (of
// kind review.Undone, naming the decision they withdrew).
func (s *Store) Decisions(ctx context.Context, k review.SessionKey) ([]review.Decision, error) {
	return queryDecisions(ctx, s.r, historySQL, k.WorkItemID, k.FileName)
}

// LatestDecisions returns the current decision of every target of a
// session (the session itself, turns, tool calls): for each, its latest
// decision. The session-level one comes first.
func (s *Store) LatestDecisions(ctx context.Context, k review.SessionKey) ([]review.Decision, error) {
	return queryDecisions(ctx, s.r, `SELECT `+decisionCols+` FROM decision_latest l
		JOIN review_decisions d ON d.id = l.decision_id
		WHERE l.work_item_id = ? AND l.file_name = ?
		ORDER BY l.turn_id != '' OR l.tool_call_id != '', l.turn_id, l.tool_call_id`, k.WorkItemID, k.FileName)
}

// querier is what reads decisions: the read pool, or a transaction.
type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func queryDecisions(ctx context.Context, db querier, q string, args ...any) ([]review.Decision, error) {
	rows, err := db.QueryContext(ctx, q, args...)
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
