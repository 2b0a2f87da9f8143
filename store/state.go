package store

import (
	"database/sql/driver"
	"fmt"

	json "github.com/goccy/go-json"
	"modernc.org/sqlite"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// A session's review state (review.State) is stored with its summary
// (review_state) so that the inbox's undecided count, its undecided filter
// and its triage rank read one column. It depends on the session's current
// decisions and on which of its turns are flagged, so it is recomputed, by
// the one statement stateSQL, wherever either changes: a decision or an
// undo (Decide, Undo) and a summary written (indexSessions).
//
// sift_review_state(turns JSON, tool calls JSON, current decisions) is
// review.State as a SQL function: the JSON columns as stored (turns_json
// possibly packed), the decisions a JSON array of [turn, tool call, kind].
func init() {
	sqlite.MustRegisterFunction("sift_review_state", &sqlite.FunctionImpl{
		NArgs: 3, Deterministic: true, VolatileArgs: true, Scalar: reviewStateFunc,
	})
}

// reviewStateSQL is the review state of a summary row s: empty when it has no
// decision, else sift_review_state over its current decisions. A decision
// made before the session grew (its seen_line short of the session's
// lines) no longer counts: the session is undecided again until the
// reviewer has seen the new lines (newSinceSQL). Migration 0010 has the
// same expression, for the rows stored before the column, when no
// decision knew its line.
const reviewStateSQL = `COALESCE((SELECT sift_review_state(s.turns_json, s.tool_calls_json,
		json_group_array(json_array(l.turn_id, l.tool_call_id, l.decision)))
	FROM decision_latest l WHERE l.work_item_id = s.work_item_id AND l.file_name = s.file_name
		AND ` + seenAllSQL + ` HAVING COUNT(*) > 0), '')`

// seenAllSQL is true for a decision pointer l whose reviewer had seen
// every line of the summary s; a decision that does not know its line
// (recorded before sift kept it) has.
const seenAllSQL = `(l.seen_line = 0 OR l.seen_line >= s.line_count)`

// newSinceExpr is a summary row s's new_since: the last line its
// reviewer had seen when it has grown since (the largest seen_line of its
// current decisions, short of its lines), else 0.
const newSinceExpr = `COALESCE((SELECT MAX(l.seen_line) FROM decision_latest l
	WHERE l.work_item_id = s.work_item_id AND l.file_name = s.file_name AND l.seen_line > 0
	HAVING MAX(l.seen_line) < s.line_count), 0)`

// newSinceSQL recomputes one session's new_since; one that stays is not
// written.
const newSinceSQL = `UPDATE agent_stream_summaries AS s SET new_since = ` + newSinceExpr +
	` WHERE s.work_item_id = ? AND s.file_name = ? AND s.new_since != ` + newSinceExpr

// stateSQL recomputes the review state of one session; a state that stays
// is not written.
const stateSQL = `UPDATE agent_stream_summaries AS s SET review_state = ` + reviewStateSQL +
	` WHERE s.work_item_id = ? AND s.file_name = ? AND s.review_state != ` + reviewStateSQL

// stateTurn and stateCall are the parts of a stored turn and tool call
// that the review state reads.
type (
	stateTurn struct {
		TurnID string         `json:"turnId"`
		Flags  []summary.Flag `json:"flags"`
	}
	stateCall struct {
		ID     string `json:"id"`
		TurnID string `json:"turnId"`
	}
)

// reviewStateFunc implements sift_review_state.
func reviewStateFunc(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	var cur [][3]string
	if err := json.Unmarshal(bytesOf(args[2]), &cur); err != nil {
		return nil, fmt.Errorf("review state: decisions: %w", err)
	}
	st, err := reviewState(bytesOf(args[0]), bytesOf(args[1]), cur)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// reviewState is a session's review state (review.State) from its stored
// turns and tool calls and its current decisions, each [turn, tool call,
// kind].
func reviewState(turnsJSON, callsJSON []byte, cur [][3]string) (string, error) {
	ds := make([]review.Decision, len(cur))
	needCalls := false
	for i, c := range cur {
		ds[i] = review.Decision{TurnID: c[0], ToolCallID: c[1], Kind: review.DecisionKind(c[2])}
		if ds[i].OnSession() {
			return c[2], nil
		}
		needCalls = needCalls || ds[i].TurnID == ""
	}
	raw, err := unpackJSON(turnsJSON)
	if err != nil {
		return "", fmt.Errorf("review state: turns: %w", err)
	}
	var st []stateTurn
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &st); err != nil {
			return "", fmt.Errorf("review state: turns: %w", err)
		}
	}
	turns := make([]summary.Turn, len(st))
	for i, t := range st {
		turns[i] = summary.Turn{TurnID: t.TurnID, Flags: t.Flags}
	}
	var calls []summary.ToolCall
	if needCalls {
		// Only a decision on a tool call without its turn needs the
		// calls, to find the turn.
		var sc []stateCall
		if b := callsJSON; len(b) > 0 {
			if err := json.Unmarshal(b, &sc); err != nil {
				return "", fmt.Errorf("review state: tool calls: %w", err)
			}
		}
		calls = make([]summary.ToolCall, len(sc))
		for i, c := range sc {
			calls[i] = summary.ToolCall{ID: c.ID, TurnID: c.TurnID}
		}
	}
	return string(review.State(turns, calls, ds)), nil
}

// bytesOf returns a TEXT or BLOB argument's bytes (nil for NULL). They
// point into SQLite's memory for the duration of the call.
func bytesOf(v driver.Value) []byte {
	switch v := v.(type) {
	case string:
		return []byte(v)
	case []byte:
		return v
	}
	return nil
}
