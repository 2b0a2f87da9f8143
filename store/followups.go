package store

import (
	"context"
	"database/sql"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// followupsSQL selects the open follow-ups (openFollowupSQL) of the
// sessions still stored, oldest first, with the session's list row and
// tool calls.
const followupsSQL = `SELECT ` + decisionCols + `, s.brief_json, s.tool_calls_json, s.review_state
	FROM decision_latest l
	JOIN review_decisions d ON d.id = l.decision_id
	JOIN agent_stream_summaries s ON s.work_item_id = l.work_item_id AND s.file_name = l.file_name
	WHERE l.decision = 'needs_followup' AND ` + openFollowupSQL + `
	ORDER BY d.id`

// Followups returns the open follow-ups: every current needs_followup
// decision (on a session, a turn or a tool call) that no later
// session-level reviewed decision closed, oldest first, each with its
// session's list fields and working directory and its failing call
// (review.FailingCall).
func (s *Store) Followups(ctx context.Context) ([]review.Followup, error) {
	rows, err := s.r.QueryContext(ctx, followupsSQL)
	if err != nil {
		return nil, fmt.Errorf("followups: %w", wrapError(err))
	}
	defer rows.Close()
	var out []review.Followup
	for rows.Next() {
		var f review.Followup
		var brief, state string
		var calls sql.NullString
		d := &f.Decision
		var created sql.NullInt64
		if err := rows.Scan(&d.ID, &d.Session.WorkItemID, &d.Session.FileName, &d.TurnID, &d.ToolCallID, &d.Kind, &d.Note,
			&d.Reviewer, &created, &d.Supersedes, &d.SeenLine, &brief, &calls, &state); err != nil {
			return nil, fmt.Errorf("followups: %w", err)
		}
		d.CreatedAt = fromMs(created)
		if err := json.Unmarshal([]byte(brief), &f.Session.Summary); err != nil {
			unreadable(&f.Session.Summary, d.Session.WorkItemID, d.Session.FileName, "", "brief_json", err)
		}
		f.Session.State = review.DecisionKind(state)
		var tcs []summary.ToolCall
		if calls.Valid {
			data, err := unpackJSON([]byte(calls.String))
			if err == nil {
				err = json.Unmarshal(data, &tcs)
			}
			if err != nil {
				// The follow-up stands without its failing call.
				tcs = nil
			}
		}
		if c := review.FailingCall(d, tcs); c != nil {
			call := *c
			f.Call = &call
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("followups: %w", wrapError(err))
	}
	rows.Close()
	for i := range out {
		k := out[i].Decision.Session
		if out[i].Session.Cwd, err = s.InvocationCwd(ctx, k.WorkItemID, k.FileName); err != nil {
			return nil, err
		}
	}
	return out, nil
}
