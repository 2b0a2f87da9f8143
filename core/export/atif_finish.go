package export

import (
	"sort"
	"strconv"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// Findings is what sift concluded about a session: its summary (flags,
// stalls, outcome, tokens and cost) and the reviewers' decisions. A
// trajectory carries them in its extra fields.
type Findings struct {
	// Summary is the session's summary; nil when there is none.
	Summary *summary.Summary
	// Decisions are the decisions recorded on the session, its turns and
	// its tool calls.
	Decisions []review.Decision
	// Source says what the steps were built from: "stream" (the raw
	// file), "review_events" or "summary".
	Source string
	// Missing names what sift no longer has, for a trajectory built from
	// less than the stream.
	Missing []string
	// RunArgs are the agent's arguments as `sift run` passed them (the
	// prompt among them when the stream does not carry it); nil for a
	// run sift did not start.
	RunArgs []string
}

// subagentsKey is the root extra that holds the subagents' trajectories;
// a SubagentRef's trajectory_path points into it.
const subagentsKey = "subagent_trajectories"

// Finish returns the trajectory of the events added, with the findings in
// its extra fields. Call it once.
func (b *TrajectoryBuilder) Finish(f Findings) *Trajectory {
	t := b.finish()
	if f.Source == "" {
		f.Source = "stream"
	}
	s := f.Summary
	if s != nil {
		markTurns(t.Steps, b.texts, s)
		if t.SessionID == "" {
			t.SessionID = s.SessionID
		}
		if t.Agent.ModelName == "" {
			t.Agent.ModelName = s.Model
		}
		t.FinalMetrics = finalMetrics(s, len(t.Steps))
	} else {
		t.FinalMetrics = b.eventMetrics(len(t.Steps))
	}
	if t.SessionID == "" && s != nil {
		t.SessionID = review.SessionKey{WorkItemID: s.WorkItemID, FileName: s.FileName}.String()
	}
	if t.SessionID == "" {
		t.SessionID = "unknown"
	}
	if s != nil && s.AgentKind != "" {
		t.Agent.Name = s.AgentKind
	}
	t.Extra["sift"] = siftExtra(f)
	b.attachSubagents(t)
	return t
}

// finish redacts the steps' text and makes the trajectory of the steps
// alone (a subagent's).
func (b *TrajectoryBuilder) finish() *Trajectory {
	for i := range b.steps {
		s := &b.steps[i]
		s.ModelName = redact.String(s.ModelName)
		s.Message = redact.String(b.texts[i].msg.String())
		s.ReasoningContent = redact.String(b.texts[i].reason.String())
		if s.Observation != nil {
			for j := range s.Observation.Results {
				if c := s.Observation.Results[j].Content; c != nil {
					r := redact.String(*c)
					s.Observation.Results[j].Content = &r
				}
			}
		}
	}
	t := &Trajectory{
		SchemaVersion: ATIFVersion,
		SessionID:     redact.String(b.sessionID),
		Agent:         Agent{Name: "unknown", Version: "unknown", ModelName: redact.String(b.model)},
		Steps:         b.steps,
		Extra:         map[string]any{},
	}
	if t.Steps == nil {
		t.Steps = []Step{}
	}
	if b.cliVersion != "" {
		t.Agent.Version = b.cliVersion
	}
	if st := b.start; st != nil {
		ax := map[string]any{}
		if len(st.Tools) > 0 {
			ax["tools"] = st.Tools
		}
		if st.Cwd != "" {
			ax["cwd"] = redact.String(st.Cwd)
		}
		if len(ax) > 0 {
			t.Agent.Extra = ax
		}
	}
	if r := b.result; r != nil {
		m := resultExtra(r)
		// The result line repeats the final message: kept only when it
		// says something the last agent step does not.
		if i := b.lastAgent(); i >= 0 && m["text"] == b.steps[i].Message {
			delete(m, "text")
		}
		t.Extra["result"] = m
	}
	return t
}

// resultExtra is the harness's terminal line as the root extra keeps it.
func resultExtra(r *event.Update) map[string]any {
	m := map[string]any{}
	if r.Subtype != "" {
		m["subtype"] = r.Subtype
	}
	if r.IsError != nil {
		m["is_error"] = *r.IsError
	}
	if r.DurationMs != nil {
		m["duration_ms"] = *r.DurationMs
	}
	if r.NumTurns != nil {
		m["num_turns"] = *r.NumTurns
	}
	if r.Text != "" {
		m["text"] = redact.String(r.Text)
	}
	return m
}

// attachSubagents finishes the subagents' trajectories, embeds them in
// the root extra and points the observation of each call that started
// one at it. A subagent whose call is not in any trajectory is embedded
// all the same.
func (b *TrajectoryBuilder) attachSubagents(t *Trajectory) {
	if len(b.subOrder) == 0 {
		return
	}
	subs := make([]*Trajectory, len(b.subOrder))
	for i, id := range b.subOrder {
		sb := b.subs[id]
		st := sb.finish()
		st.SessionID = t.SessionID + "/" + id
		st.Agent = Agent{Name: t.Agent.Name, Version: t.Agent.Version, ModelName: redact.String(sb.model)}
		st.Extra["parent_tool_call_id"] = id
		st.FinalMetrics = sb.eventMetrics(len(st.Steps))
		subs[i] = st
	}
	for i, id := range b.subOrder {
		ref := SubagentRef{SessionID: subs[i].SessionID, TrajectoryPath: "#/extra/" + subagentsKey + "/" + strconv.Itoa(i)}
		if !linkSubagent(t.Steps, b.calls, id, ref) {
			for j, other := range b.subOrder {
				if linkSubagent(subs[j].Steps, b.subs[other].calls, id, ref) {
					break
				}
			}
		}
	}
	t.Extra[subagentsKey] = subs
}

// linkSubagent adds ref to the observation result of call id in steps.
func linkSubagent(steps []Step, calls map[string]*callPlace, id string, ref SubagentRef) bool {
	p, ok := calls[id]
	if !ok {
		return false
	}
	s := &steps[p.step]
	if s.Observation == nil {
		s.Observation = &Observation{}
	}
	if p.result < 0 {
		s.Observation.Results = append(s.Observation.Results, ObservationResult{SourceCallID: id})
		p.result = len(s.Observation.Results) - 1
	}
	r := &s.Observation.Results[p.result]
	r.SubagentTrajectoryRef = append(r.SubagentTrajectoryRef, ref)
	return true
}

// markTurns gives each agent step of the main trajectory the turn id and
// the flags of the summary turn it falls in, and each step with tool
// calls what the summary found of them.
func markTurns(steps []Step, texts []stepText, s *summary.Summary) {
	turns := s.Turns
	calls := make(map[string]*summary.ToolCall, len(s.ToolCalls))
	for i := range s.ToolCalls {
		calls[s.ToolCalls[i].ID] = &s.ToolCalls[i]
	}
	for i := range steps {
		st := &steps[i]
		if st.Source != SourceAgent {
			continue
		}
		line := texts[i].line
		k := sort.Search(len(turns), func(k int) bool { return turns[k].EndLine >= line })
		if k < len(turns) && turns[k].Line <= line {
			ex := extraOf(st)
			ex["sift_turn_id"] = turns[k].TurnID
			if len(turns[k].Flags) > 0 {
				ex["sift_flags"] = turns[k].Flags
			}
		}
		var found []map[string]any
		for _, tc := range st.ToolCalls {
			c := calls[tc.ToolCallID]
			if c == nil {
				continue
			}
			found = append(found, callExtra(c))
		}
		if len(found) > 0 {
			extraOf(st)["sift_tool_calls"] = found
		}
	}
}

// callExtra is what the summary found of one tool call.
func callExtra(c *summary.ToolCall) map[string]any {
	m := map[string]any{"tool_call_id": c.ID, "kind": c.Kind}
	if c.Success != nil {
		m["success"] = *c.Success
	}
	if c.ApprovalRequired {
		m["approval_required"] = true
	}
	if c.DurationMs != nil {
		m["duration_ms"] = *c.DurationMs
	}
	if c.ExitCode != nil {
		m["exit_code"] = *c.ExitCode
	}
	if c.Error != nil {
		m["error"] = redact.String(*c.Error)
	}
	return m
}

func extraOf(s *Step) map[string]any {
	if s.Extra == nil {
		s.Extra = map[string]any{}
	}
	return s.Extra
}
