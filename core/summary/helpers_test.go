package summary

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// t0 is the start of every hand-built stream.
var t0 = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

// at returns t0 plus a number of seconds.
func at(sec float64) time.Time { return t0.Add(time.Duration(sec * float64(time.Second))) }

// stream builds a hand-made event sequence, one event per line unless
// same() is used.
type stream struct {
	evs  []*event.Event
	line int
}

// add appends an event on a new line; ts may be zero.
func (s *stream) add(ts time.Time, u event.Update) *event.Event {
	s.line++
	ev := &event.Event{Line: s.line, Offset: int64(s.line-1) * 100, Timestamp: ts, Update: u}
	s.evs = append(s.evs, ev)
	return ev
}

// same appends an event on the line of the previous one.
func (s *stream) same(u event.Update) *event.Event {
	prev := s.evs[len(s.evs)-1]
	ev := &event.Event{Line: prev.Line, Offset: prev.Offset, Timestamp: prev.Timestamp,
		MessageID: prev.MessageID, Model: prev.Model, Update: u}
	s.evs = append(s.evs, ev)
	return ev
}

// stats is what a parse of the stream as Claude Code's reports: Claude
// ends every finished stream with a result line.
func (s *stream) stats() event.Stats {
	return event.Stats{Agent: string(agents.Claude), EndsWithResult: true, Lines: s.line, Bytes: int64(s.line) * 100}
}

func (s *stream) summarize(t *testing.T, opt Options) (*Summary, []ReviewEvent) {
	t.Helper()
	return Events(s.evs, s.stats(), opt)
}

func text(s string) event.Update {
	return event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(s)}
}

func user(s string) event.Update {
	return event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(s)}
}

func call(id, name string, input string) event.Update {
	u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: id, ToolName: name,
		ToolKind: agents.ToolKindOf(name), Status: event.StatusPending}
	if input != "" {
		u.RawInput = json.RawMessage(input)
	}
	return u
}

func done(id, out string) event.Update {
	return event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: id, Status: event.StatusCompleted,
		Content: event.Text(out)}
}

func failed(id, msg string) event.Update {
	return event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: id, Status: event.StatusFailed,
		Content: event.Text(msg)}
}

func result(durMs int64, isErr bool) event.Update {
	return event.Update{SessionUpdate: event.Result, DurationMs: event.Int64(durMs), IsError: event.Bool(isErr),
		Subtype: "success"}
}

func callUsage(in, out int64) event.Update {
	return event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall,
		PromptTokens: event.Int64(in), CompletionTokens: event.Int64(out)}
}

func i64(t *testing.T, name string, got *int64, want int64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s = null, want %d", name, want)
		return
	}
	if *got != want {
		t.Errorf("%s = %d, want %d", name, *got, want)
	}
}

func null(t *testing.T, name string, got *int64) {
	t.Helper()
	if got != nil {
		t.Errorf("%s = %d, want null", name, *got)
	}
}

func hasFlag(fs []Flag, f Flag) bool { return slices.Contains(fs, f) }
