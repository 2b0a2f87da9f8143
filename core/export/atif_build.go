package export

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
)

// TrajectoryBuilder folds the events of one session, in stream order,
// into the steps of an ATIF trajectory:
//
//   - user message chunks are user steps (consecutive chunks one step);
//   - agent output (message and thought chunks, tool calls, plans) is an
//     agent step, one per model response: a new message id, or output
//     after a tool result, a user message or a system step, opens the
//     next one;
//   - a tool call's result is an observation result of the step that made
//     the call, correlated by the call id;
//   - call-scoped usage is the metrics of the step of its message (the
//     last snapshot per message id, added across messages);
//   - harness errors, captured stderr and lines no parser understood are
//     system steps, marked in their extra;
//   - events of a subagent (ParentToolCallID) build a trajectory of their
//     own, referenced from the observation of the call that started it.
//
// Text is redacted when the trajectory is finished, so that a secret
// split across streamed chunks is still found.
type TrajectoryBuilder struct {
	steps []Step
	texts []stepText
	// cur is the open agent step, -1 for none; curMsg its message id.
	cur    int
	curMsg string
	// byMsg is the step of each message id.
	byMsg map[string]int
	// calls is where each tool call is: its step and, once it has one,
	// its observation result.
	calls map[string]*callPlace
	// subs are the subagents' builders by the call that started them.
	subs     map[string]*TrajectoryBuilder
	subOrder []string

	sessionID  string
	model      string
	cliVersion string
	start      *event.Update
	result     *event.Update
	runUsage   *event.Update
}

// stepText collects a step's message and reasoning as they stream.
type stepText struct {
	msg, reason strings.Builder
	// line is the stream line the step starts at.
	line int
}

// callPlace is where a tool call sits in the steps.
type callPlace struct {
	step, call int
	// result is the index of its observation result, -1 for none yet.
	result int
}

// NewTrajectoryBuilder returns an empty builder.
func NewTrajectoryBuilder() *TrajectoryBuilder {
	return &TrajectoryBuilder{cur: -1, byMsg: map[string]int{}, calls: map[string]*callPlace{}, subs: map[string]*TrajectoryBuilder{}}
}

// Add folds one event. It keeps what it needs of the event and never
// holds on to the event itself.
func (b *TrajectoryBuilder) Add(ev *event.Event) {
	if p := ev.ParentToolCallID; p != "" {
		sub := b.subs[p]
		if sub == nil {
			sub = NewTrajectoryBuilder()
			b.subs[p] = sub
			b.subOrder = append(b.subOrder, p)
		}
		c := *ev
		c.ParentToolCallID = ""
		sub.Add(&c)
		return
	}
	if b.sessionID == "" {
		b.sessionID = ev.SessionID
	}
	if ev.Model != "" && b.model == "" {
		b.model = ev.Model
	}
	u := &ev.Update
	switch u.SessionUpdate {
	case event.UserMessageChunk:
		b.user(ev)
	case event.AgentMessageChunk, event.AgentThoughtChunk:
		i := b.agent(ev)
		t := &b.texts[i]
		w := &t.msg
		if u.SessionUpdate == event.AgentThoughtChunk {
			w = &t.reason
		}
		w.WriteString(contentText(u.Content))
	case event.ToolCall:
		b.toolCall(ev)
	case event.ToolCallUpdate:
		b.toolUpdate(ev)
	case event.Plan:
		i := b.agent(ev)
		b.stepExtra(i)["plan"] = planOf(u.Entries)
	case event.Usage:
		b.usage(ev)
	case event.Error:
		i := b.system(ev, "error", false)
		if u.Fatal {
			b.steps[i].Extra["fatal"] = true
		}
		b.texts[i].msg.WriteString(u.Message)
	case event.Stderr:
		i := b.system(ev, "stderr", true)
		b.appendLine(i, u.Text)
	case event.Raw:
		i := b.system(ev, "raw", true)
		b.appendLine(i, u.Text)
	case event.SessionStart:
		c := *u
		b.start = &c
		if u.CLIVersion != "" {
			b.cliVersion = u.CLIVersion
		}
	case event.Result:
		c := *u
		b.result = &c
	}
}

// newStep appends a step of source at the event and returns its index.
func (b *TrajectoryBuilder) newStep(ev *event.Event, source string) int {
	b.steps = append(b.steps, Step{StepID: len(b.steps) + 1, Source: source, Timestamp: stamp(ev.Timestamp)})
	b.texts = append(b.texts, stepText{line: ev.Line})
	return len(b.steps) - 1
}

// user returns the user step of a user message chunk: the last step when
// it is a user step, else a new one.
func (b *TrajectoryBuilder) user(ev *event.Event) {
	i := len(b.steps) - 1
	if i < 0 || b.steps[i].Source != SourceUser {
		i = b.newStep(ev, SourceUser)
	}
	b.cur = -1
	b.texts[i].msg.WriteString(contentText(ev.Update.Content))
}

// agent returns the agent step an event of agent output belongs to,
// opening a new one for a new model response.
func (b *TrajectoryBuilder) agent(ev *event.Event) int {
	if b.cur >= 0 && (ev.MessageID == "" || b.curMsg == "" || ev.MessageID == b.curMsg) {
		if b.curMsg == "" && ev.MessageID != "" {
			b.curMsg = ev.MessageID
			b.byMsg[ev.MessageID] = b.cur
		}
		b.fillTime(b.cur, ev)
		return b.cur
	}
	i := b.newStep(ev, SourceAgent)
	b.cur, b.curMsg = i, ev.MessageID
	if ev.MessageID != "" {
		b.byMsg[ev.MessageID] = i
	}
	b.steps[i].ModelName = ev.Model
	return i
}

// system returns a system step of a kind of sift event: the last step
// when it is one of the same kind and merge is set, else a new one.
func (b *TrajectoryBuilder) system(ev *event.Event, kind string, merge bool) int {
	b.cur = -1
	i := len(b.steps) - 1
	if merge && i >= 0 && b.steps[i].Source == SourceSystem && b.steps[i].Extra["sift_event"] == kind {
		return i
	}
	i = b.newStep(ev, SourceSystem)
	b.stepExtra(i)["sift_event"] = kind
	return i
}

func (b *TrajectoryBuilder) appendLine(i int, s string) {
	w := &b.texts[i].msg
	if w.Len() > 0 {
		w.WriteByte('\n')
	}
	w.WriteString(s)
}

// fillTime gives a step the event's time when it has none yet.
func (b *TrajectoryBuilder) fillTime(i int, ev *event.Event) {
	if b.steps[i].Timestamp == "" {
		b.steps[i].Timestamp = stamp(ev.Timestamp)
	}
}

func (b *TrajectoryBuilder) stepExtra(i int) map[string]any {
	if b.steps[i].Extra == nil {
		b.steps[i].Extra = map[string]any{}
	}
	return b.steps[i].Extra
}

// stamp is a step's ISO 8601 time; empty for an untimed event.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// contentText is the text of a content block; an image is named, never
// drawn as text.
func contentText(c *event.Content) string {
	if c == nil {
		return ""
	}
	if c.Type == "image" {
		return "[image " + c.MimeType + "]"
	}
	return c.Text
}

// planOf is a plan's entries as the step's extra keeps them.
func planOf(es []event.PlanEntry) []map[string]string {
	out := make([]map[string]string, len(es))
	for i, e := range es {
		m := map[string]string{"content": redact.String(e.Content)}
		if e.Status != "" {
			m["status"] = e.Status
		}
		out[i] = m
	}
	return out
}

// arguments is a tool call's input as the JSON object ATIF wants: the
// harness's object redacted, another JSON value under "input", {} for
// none.
func arguments(raw json.RawMessage) json.RawMessage {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	red := redact.JSONLine(raw)
	if !json.Valid(red) {
		red, _ = json.Marshal(redact.String(string(raw)))
	}
	if red[0] == '{' {
		return append(json.RawMessage(nil), red...)
	}
	out, _ := json.Marshal(map[string]json.RawMessage{"input": red})
	return out
}
