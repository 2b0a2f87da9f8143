package export

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentsift/sift/core/detail"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/summary"
)

// StreamTrajectory parses a stream (agent names its harness; empty
// sniffs) and returns its trajectory. When f has no summary, the stream
// is summarized in the same read, with opt.
func StreamTrajectory(r io.Reader, opt summary.Options, f Findings) (*Trajectory, error) {
	b := NewTrajectoryBuilder()
	var sb *summary.Builder
	if f.Summary == nil {
		opt.NoReviewEvents = true
		sb = summary.NewBuilder(opt)
	}
	st, err := detail.Parse(r, opt.Agent, false, func(ev *event.Event) {
		b.Add(ev)
		if sb != nil {
			sb.Add(ev)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("read stream: %w", err)
	}
	if sb != nil {
		f.Summary, _ = sb.Finish(st)
	}
	if f.Source == "" {
		f.Source = "stream"
	}
	return b.Finish(f), nil
}

// ReviewTrajectory is the trajectory of a session whose stream file is
// gone, from the review events sift kept of it: each prompt a user step,
// each response an agent step with its tokens, each tool call a call of
// the step before it with its outcome as the observation. The messages
// are the review events' one-line summaries and the arguments of the
// calls are not known: the notes and extra say so.
func ReviewTrajectory(evs []summary.ReviewEvent, f Findings) *Trajectory {
	b := NewTrajectoryBuilder()
	for i := range evs {
		b.addReview(&evs[i])
	}
	f.Source = "review_events"
	f.Missing = append(f.Missing, "stream file", "full message text", "tool call arguments", "tool output beyond one line")
	t := b.Finish(f)
	t.Notes = "Built by sift from its review events: the raw stream file is gone. Messages and tool results are one-line summaries; tool call arguments are not known."
	return t
}

// addReview folds one review event: a response is a model turn of its
// own, and a tool call and its result stay with the response before them.
func (b *TrajectoryBuilder) addReview(r *summary.ReviewEvent) {
	cur := b.cur
	switch r.Type {
	case summary.ReviewResponse:
		b.cur = -1
	case summary.ReviewToolCallStarted:
		if cur < 0 {
			cur = b.lastAgent()
		}
		b.cur = cur
	}
	evs := ReviewEventsAsEvents(r)
	for i := range evs {
		b.Add(&evs[i])
	}
	switch r.Type {
	case summary.ReviewResponse:
		if i := b.lastAgent(); r.TurnID != "" && i >= 0 {
			extraOf(&b.steps[i])["sift_turn_id"] = r.TurnID
		}
	case summary.ReviewToolCallCompleted, summary.ReviewToolCallFailed, summary.ReviewApprovalRequired:
		// Several results of one response stay with its step.
		b.cur = cur
	}
}

// ReviewEventsAsEvents is a review event as the normalized events it
// stands for: a prompt a user message, a response an agent message (and
// its tokens as call usage), a tool call's start a tool call and its end
// a tool call update. The texts are the review event's one-line summary.
func ReviewEventsAsEvents(r *summary.ReviewEvent) []event.Event {
	ev := event.Event{Line: r.Line, SessionID: r.SessionID, Model: r.Model}
	if r.Time != nil {
		ev.Timestamp = *r.Time
	}
	switch r.Type {
	case summary.ReviewPrompt:
		ev.Update = event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(r.Summary)}
	case summary.ReviewResponse:
		ev.Update = event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(r.Summary)}
		if r.InputTokens != nil || r.OutputTokens != nil {
			u := ev
			u.Update = event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall, PromptTokens: r.InputTokens, CompletionTokens: r.OutputTokens}
			return []event.Event{ev, u}
		}
	case summary.ReviewToolCallStarted:
		ev.Update = event.Update{SessionUpdate: event.ToolCall, ToolCallID: r.ToolCallID, ToolName: r.ToolName, Title: r.DisplayName, Status: event.StatusPending}
	case summary.ReviewToolCallCompleted, summary.ReviewToolCallFailed, summary.ReviewApprovalRequired:
		st := event.StatusCompleted
		if r.Type != summary.ReviewToolCallCompleted {
			st = event.StatusFailed
		}
		ev.Update = event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: r.ToolCallID, ToolName: r.ToolName,
			Status: st, Content: event.Text(r.Summary), ApprovalRequired: r.Type == summary.ReviewApprovalRequired}
	default:
		return nil
	}
	return []event.Event{ev}
}

// SummaryTrajectory is the trajectory of a session of which sift kept
// only the summary: a system step that says what is missing and, when
// the summary kept it, the final assistant message as the one agent
// step. Its final metrics and extra carry the summary's figures and
// findings.
func SummaryTrajectory(f Findings) *Trajectory {
	b := NewTrajectoryBuilder()
	missing := []string{"stream file", "review events"}
	f.Source = "summary"
	f.Missing = append(f.Missing, missing...)
	ev := &event.Event{Update: event.Update{SessionUpdate: event.Error}}
	if s := f.Summary; s != nil && s.StartedAt != nil {
		ev.Timestamp = *s.StartedAt
	}
	i := b.system(ev, "missing", false)
	b.texts[i].msg.WriteString("sift kept only the summary of this session: its " + strings.Join(missing, " and ") + " are gone, so its steps are not known.")
	if s := f.Summary; s != nil && s.FinalAssistantMessage != nil {
		ev := &event.Event{Model: s.Model, Update: event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(redact.String(*s.FinalAssistantMessage))}}
		if s.EndedAt != nil {
			ev.Timestamp = *s.EndedAt
		}
		b.Add(ev)
		extraOf(&b.steps[len(b.steps)-1])["sift_note"] = "the session's final assistant message; earlier steps are not known"
	}
	t := b.Finish(f)
	t.Notes = "Built by sift from a session summary alone: the raw stream file and its review events are gone. Steps are not known; final_metrics and extra.sift hold what the summary kept."
	return t
}
