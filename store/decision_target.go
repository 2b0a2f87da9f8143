package store

import (
	"errors"
	"fmt"
	"slices"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/review"
)

// ErrUnknownTarget is matched by Decide's error when the turn or tool call
// a decision names is not one of the session's (or the tool call is not
// one of the named turn's). That error also matches ErrNotFound.
var ErrUnknownTarget = errors.New("unknown decision target")

// targetError is a decision target that does not exist; its message names
// the id and the session.
type targetError struct{ msg string }

// Error returns the message.
func (e *targetError) Error() string { return e.msg }

// Is reports whether target is ErrUnknownTarget or ErrNotFound.
func (e *targetError) Is(target error) bool {
	return target == ErrUnknownTarget || target == ErrNotFound
}

// unknownTarget builds a targetError.
func unknownTarget(format string, args ...any) error {
	return &targetError{msg: fmt.Sprintf(format, args...)}
}

// targetTurn and targetCall are the parts of a stored turn and tool call
// that a decision's target is checked against.
type (
	targetTurn struct {
		TurnID      string   `json:"turnId"`
		ToolCallIDs []string `json:"toolCallIds"`
	}
	targetCall struct {
		ID     string `json:"id"`
		TurnID string `json:"turnId"`
	}
)

// checkTarget checks a decision's turn and tool call against the session's
// stored turns (turns_json, possibly packed) and tool calls
// (tool_calls_json): each must exist, and a tool call given with a turn
// must belong to it. The error names the id and the session.
func checkTarget(d review.Decision, turnsCol, callsCol []byte) error {
	if d.TurnID == "" && d.ToolCallID == "" {
		return nil
	}
	session := d.Session.String()
	var turns []targetTurn
	var calls []targetCall
	if d.TurnID != "" {
		b, err := unpackJSON(turnsCol)
		if err == nil {
			err = json.Unmarshal(b, &turns)
		}
		if err != nil {
			return fmt.Errorf("decide %s: read turns: %w", session, err)
		}
	}
	if d.ToolCallID != "" {
		if err := json.Unmarshal(callsCol, &calls); err != nil {
			return fmt.Errorf("decide %s: read tool calls: %w", session, err)
		}
	}
	var turn *targetTurn
	if d.TurnID != "" {
		i := slices.IndexFunc(turns, func(t targetTurn) bool { return t.TurnID == d.TurnID })
		if i < 0 {
			return unknownTarget("session %s has no turn %q (%s)", session, d.TurnID, turnRange(turns))
		}
		turn = &turns[i]
	}
	if d.ToolCallID == "" {
		return nil
	}
	i := slices.IndexFunc(calls, func(c targetCall) bool { return c.ID == d.ToolCallID })
	if i < 0 {
		return unknownTarget("session %s has no tool call %q", session, d.ToolCallID)
	}
	if turn != nil && calls[i].TurnID != turn.TurnID && !slices.Contains(turn.ToolCallIDs, d.ToolCallID) {
		where := "another turn"
		if calls[i].TurnID != "" {
			where = "turn " + calls[i].TurnID
		}
		return unknownTarget("tool call %q of session %s belongs to %s, not to turn %q",
			d.ToolCallID, session, where, d.TurnID)
	}
	return nil
}

// turnRange says which turns a session has: "turns t1…t7", or "it has no
// turns".
func turnRange(turns []targetTurn) string {
	switch len(turns) {
	case 0:
		return "it has no turns"
	case 1:
		return "its one turn is " + turns[0].TurnID
	}
	return "turns " + turns[0].TurnID + "…" + turns[len(turns)-1].TurnID
}
