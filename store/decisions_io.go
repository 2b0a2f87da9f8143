package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/agentsift/sift/core/review"
)

// ExportedDecision is a decision as `sift decisions export` writes it, one
// JSON line each: everything that identifies it, so that importing the
// same line twice keeps one. Decisions are the one thing the stream files
// cannot rebuild.
type ExportedDecision struct {
	WorkItemID string `json:"workItemId"`
	FileName   string `json:"fileName"`
	TurnID     string `json:"turnId,omitempty"`
	ToolCallID string `json:"toolCallId,omitempty"`
	// Decision is reviewed, needs_followup or ignored; undone on an undo.
	Decision  review.DecisionKind `json:"decision"`
	Note      string              `json:"note,omitempty"`
	Reviewer  string              `json:"reviewerId,omitempty"`
	CreatedAt time.Time           `json:"createdAt"`
	// SeenLine is how far the reviewer had seen the session (its line
	// count at the decision); 0 when not recorded.
	SeenLine int `json:"seenLine,omitempty"`
	// Withdraws is, on an undo, the decision on the same target it
	// withdraws.
	Withdraws *WithdrawnDecision `json:"withdraws,omitempty"`
}

// WithdrawnDecision names the decision an undo withdraws.
type WithdrawnDecision struct {
	Decision  review.DecisionKind `json:"decision"`
	Note      string              `json:"note,omitempty"`
	Reviewer  string              `json:"reviewerId,omitempty"`
	CreatedAt time.Time           `json:"createdAt"`
}

// ExportDecisions calls fn with every decision recorded at or after since
// (all of them for the zero time), oldest first, undos included. Each
// session is named by its key as shown (review.SessionKey.Shown): an
// export is shared, and ImportDecisions finds the session of a redacted
// key again.
func (s *Store) ExportDecisions(ctx context.Context, since time.Time, fn func(ExportedDecision) error) error {
	rows, err := s.r.QueryContext(ctx, `SELECT d.work_item_id, d.file_name, d.turn_id, d.tool_call_id, d.decision, d.note,
		d.reviewer_id, d.created_at, d.seen_line, d.supersedes, w.decision, w.note, w.reviewer_id, w.created_at
		FROM review_decisions d LEFT JOIN review_decisions w ON w.id = d.supersedes AND d.supersedes != 0
		WHERE d.created_at >= ? ORDER BY d.id`, since.UnixMilli())
	if err != nil {
		return fmt.Errorf("export decisions: %w", wrapError(err))
	}
	defer rows.Close()
	for rows.Next() {
		var d ExportedDecision
		var created, supersedes int64
		var wKind, wNote, wReviewer sql.NullString
		var wCreated sql.NullInt64
		if err := rows.Scan(&d.WorkItemID, &d.FileName, &d.TurnID, &d.ToolCallID, &d.Decision, &d.Note, &d.Reviewer, &created,
			&d.SeenLine, &supersedes, &wKind, &wNote, &wReviewer, &wCreated); err != nil {
			return fmt.Errorf("export decisions: %w", wrapError(err))
		}
		d.CreatedAt = time.UnixMilli(created).UTC()
		shown := review.SessionKey{WorkItemID: d.WorkItemID, FileName: d.FileName}.Shown()
		d.WorkItemID, d.FileName = shown.WorkItemID, shown.FileName
		if supersedes != 0 {
			d.Decision = review.Undone
			d.Withdraws = &WithdrawnDecision{Decision: review.DecisionKind(wKind.String), Note: wNote.String,
				Reviewer: wReviewer.String, CreatedAt: fromMs(wCreated)}
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	return wrapError(rows.Err())
}

// DecisionImport is what ImportDecisions did.
type DecisionImport struct {
	// Added and Present count the decisions appended and those the store
	// held already.
	Added, Present int
	// NewReviewers are the reviewer ids of the added decisions that no
	// decision in the store named before, sorted.
	NewReviewers []string
	// Unknown counts the sessions decided on that the store does not hold
	// (decisions outlive summaries, so they are kept); FirstUnknown names
	// up to five of them.
	Unknown      int
	FirstUnknown []review.SessionKey
}

// ImportDecisions appends exported decisions that the store does not hold
// yet (the same target, kind, note, reviewer and time; an undo, withdrawing
// the same decision), in one durable transaction: all of them or, on an
// error, none. read calls add once per decision, in the order of the file,
// and returns add's error or its own; the decisions are never held
// together. A decision's session need not be stored: decisions outlive
// summaries. The sessions it touches get their current decisions (the
// latest by time, so an old decision never displaces a newer one), review
// state and triage rank again.
func (s *Store) ImportDecisions(ctx context.Context, read func(add func(ExportedDecision) error) error) (DecisionImport, error) {
	var res DecisionImport
	touched := map[review.SessionKey]bool{}
	newReviewers := map[string]bool{}
	err := s.durable(ctx, "import decisions", func(tx *sql.Tx) error {
		known, err := reviewers(ctx, tx)
		if err != nil {
			return err
		}
		var shown map[string]review.SessionKey
		err = read(func(d ExportedDecision) error {
			if err := checkImported(d, s.now()); err != nil {
				return err
			}
			if k := (review.SessionKey{WorkItemID: d.WorkItemID, FileName: d.FileName}); review.ShowsRedacted(k.Ref()) {
				// An export names a key that holds a secret as shown:
				// the stored session it stands for, when one alone does.
				if shown == nil {
					if shown, err = shownKeys(ctx, tx); err != nil {
						return err
					}
				}
				if real, ok := shown[k.Ref()]; ok {
					d.WorkItemID, d.FileName = real.WorkItemID, real.FileName
				}
			}
			ok, err := importDecision(ctx, tx, d, s.d)
			if err != nil {
				return err
			}
			if !ok {
				res.Present++
				return nil
			}
			res.Added++
			touched[review.SessionKey{WorkItemID: d.WorkItemID, FileName: d.FileName}] = true
			if d.Reviewer != "" && !known[d.Reviewer] {
				newReviewers[d.Reviewer] = true
			}
			return nil
		})
		if err != nil {
			return err
		}
		keys := slices.SortedFunc(maps.Keys(touched), func(a, b review.SessionKey) int {
			return cmp.Or(cmp.Compare(a.WorkItemID, b.WorkItemID), cmp.Compare(a.FileName, b.FileName))
		})
		for _, k := range keys {
			var one int
			err := tx.QueryRowContext(ctx, `SELECT 1 FROM agent_stream_summaries WHERE work_item_id = ? AND file_name = ?`,
				k.WorkItemID, k.FileName).Scan(&one)
			if errors.Is(err, sql.ErrNoRows) {
				if res.Unknown++; len(res.FirstUnknown) < 5 {
					res.FirstUnknown = append(res.FirstUnknown, k)
				}
			} else if err != nil {
				return fmt.Errorf("import decisions %s: %w", k, wrapError(err))
			}
			if err := s.relatest(ctx, tx, k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return DecisionImport{}, err
	}
	res.NewReviewers = slices.Sorted(maps.Keys(newReviewers))
	return res, nil
}

// reviewers returns the reviewer ids the store's decisions name.
func reviewers(ctx context.Context, tx *sql.Tx) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT reviewer_id FROM review_decisions`)
	if err != nil {
		return nil, fmt.Errorf("import decisions: %w", wrapError(err))
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			return nil, fmt.Errorf("import decisions: %w", wrapError(err))
		}
		out[r] = true
	}
	return out, wrapError(rows.Err())
}

// Bounds of an imported decision: a decision cannot be made later than
// now (give or take maxClockSkew between the machine that exported it and
// this one), nor have seen a line past maxSeenLine (a stream of that many
// lines would be terabytes); a reviewer id is a name, not a text.
const (
	maxClockSkew   = 5 * time.Minute
	maxSeenLine    = 100_000_000
	maxReviewerLen = 200
)

// checkImported refuses an exported decision no reviewer could have made.
func checkImported(d ExportedDecision, now time.Time) error {
	switch {
	case d.CreatedAt.After(now.Add(maxClockSkew)):
		return fmt.Errorf("createdAt %s is in the future", d.CreatedAt.Format(time.RFC3339))
	case d.SeenLine < 0 || d.SeenLine > maxSeenLine:
		return fmt.Errorf("seenLine %d is not a line a session can have (0 to %d)", d.SeenLine, maxSeenLine)
	case len(d.Reviewer) > maxReviewerLen:
		return fmt.Errorf("reviewerId of %d bytes is longer than %d", len(d.Reviewer), maxReviewerLen)
	case d.Withdraws != nil && len(d.Withdraws.Reviewer) > maxReviewerLen:
		return fmt.Errorf("withdraws.reviewerId of %d bytes is longer than %d", len(d.Withdraws.Reviewer), maxReviewerLen)
	case d.Withdraws != nil && d.Withdraws.CreatedAt.After(now.Add(maxClockSkew)):
		return fmt.Errorf("withdraws.createdAt %s is in the future", d.Withdraws.CreatedAt.Format(time.RFC3339))
	}
	return nil
}

// importDecision appends one exported decision unless it is stored;
// added is false when it was.
func importDecision(ctx context.Context, tx *sql.Tx, d ExportedDecision, dl dialect) (added bool, err error) {
	if d.WorkItemID == "" || d.FileName == "" {
		return false, errors.New("no workItemId or fileName")
	}
	if d.CreatedAt.IsZero() {
		return false, errors.New("no createdAt")
	}
	kind, supersedes := d.Decision, int64(0)
	switch {
	case kind == review.Undone:
		w := d.Withdraws
		if w == nil || !w.Decision.Valid() {
			return false, errors.New("an undo without the decision it withdraws")
		}
		kind = w.Decision
		if supersedes, err = findDecision(ctx, tx, d, w.Decision, w.Note, w.Reviewer, w.CreatedAt, 0); err != nil {
			return false, err
		}
		if supersedes == 0 {
			return false, fmt.Errorf("an undo of a %s decision of %s that is neither stored nor earlier in the file",
				w.Decision, w.CreatedAt.Format(time.RFC3339))
		}
	case !kind.Valid():
		return false, fmt.Errorf("%q is not a decision (want %s)", d.Decision, joinKinds())
	}
	note := d.Note
	id, err := findDecision(ctx, tx, d, kind, note, d.Reviewer, d.CreatedAt, supersedes)
	if err != nil || id != 0 {
		return false, err
	}
	var newID int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO review_decisions
		(work_item_id, file_name, turn_id, tool_call_id, decision, note, reviewer_id, created_at, supersedes, seen_line)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, d.WorkItemID, d.FileName, d.TurnID, d.ToolCallID, string(kind), note,
		d.Reviewer, d.CreatedAt.UnixMilli(), supersedes, d.SeenLine).Scan(&newID); err != nil {
		return false, wrapError(err)
	}
	if note != "" {
		rd := review.Decision{ID: newID, Session: review.SessionKey{WorkItemID: d.WorkItemID, FileName: d.FileName},
			Kind: kind, Note: note, TurnID: d.TurnID, ToolCallID: d.ToolCallID}
		if err := indexNote(ctx, tx, rd, dl); err != nil {
			return false, err
		}
	}
	return true, nil
}

// findDecision returns the id of a stored decision on d's target with
// these fields; 0 when none.
func findDecision(ctx context.Context, tx *sql.Tx, d ExportedDecision, kind review.DecisionKind, note, reviewer string,
	created time.Time, supersedes int64) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM review_decisions WHERE work_item_id = ? AND file_name = ? AND turn_id = ?
		AND tool_call_id = ? AND decision = ? AND note = ? AND reviewer_id = ? AND created_at = ? AND supersedes = ?
		ORDER BY id LIMIT 1`, d.WorkItemID, d.FileName, d.TurnID, d.ToolCallID, string(kind), note, reviewer,
		created.UnixMilli(), supersedes).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, wrapError(err)
}

// relatest points a session's decision_latest rows at its current
// decisions again, and recomputes its review state and triage rank.
func (s *Store) relatest(ctx context.Context, tx *sql.Tx, k review.SessionKey) error {
	hist, err := queryDecisions(ctx, tx, historySQL, k.WorkItemID, k.FileName)
	if err != nil {
		return fmt.Errorf("import decisions %s: %w", k, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM decision_latest WHERE work_item_id = ? AND file_name = ?`,
		k.WorkItemID, k.FileName); err != nil {
		return fmt.Errorf("import decisions %s: %w", k, wrapError(err))
	}
	for _, c := range review.Current(hist) {
		if err := pointLatest(ctx, tx, k, c.TurnID, c.ToolCallID, &c); err != nil {
			return fmt.Errorf("import decisions %s: %w", k, err)
		}
	}
	return s.rankSession(ctx, tx, k)
}

// shownKeys maps the keys as shown that differ from the stored key they
// show (review.SessionKey.Shown) to it, when one stored key alone shows
// as that.
func shownKeys(ctx context.Context, tx *sql.Tx) (map[string]review.SessionKey, error) {
	rows, err := tx.QueryContext(ctx, `SELECT work_item_id, file_name FROM agent_stream_summaries`)
	if err != nil {
		return nil, wrapError(err)
	}
	defer rows.Close()
	out := map[string]review.SessionKey{}
	twice := map[string]bool{}
	for rows.Next() {
		var k review.SessionKey
		if err := rows.Scan(&k.WorkItemID, &k.FileName); err != nil {
			return nil, wrapError(err)
		}
		s := k.String()
		if s == k.Ref() {
			continue
		}
		if _, ok := out[s]; ok {
			twice[s] = true
		}
		out[s] = k
	}
	for s := range twice {
		delete(out, s)
	}
	return out, wrapError(rows.Err())
}
