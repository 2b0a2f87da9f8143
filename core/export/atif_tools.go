package export

import (
	"encoding/json"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
)

// toolCall adds a tool call to the agent step of its response. A call
// seen again (some harnesses repeat the start) only fills its arguments.
func (b *TrajectoryBuilder) toolCall(ev *event.Event) {
	u := &ev.Update
	if p, ok := b.calls[u.ToolCallID]; ok && u.ToolCallID != "" {
		tc := &b.steps[p.step].ToolCalls[p.call]
		if string(tc.Arguments) == "{}" && len(u.RawInput) > 0 {
			tc.Arguments = arguments(u.RawInput)
		}
		return
	}
	i := b.agent(ev)
	b.addCall(i, ev)
}

// addCall appends the event's tool call to step i.
func (b *TrajectoryBuilder) addCall(i int, ev *event.Event) *callPlace {
	u := &ev.Update
	s := &b.steps[i]
	s.ToolCalls = append(s.ToolCalls, ToolCall{ToolCallID: u.ToolCallID, FunctionName: redact.String(functionName(u)), Arguments: arguments(u.RawInput)})
	p := &callPlace{step: i, call: len(s.ToolCalls) - 1, result: -1}
	if u.ToolCallID != "" {
		b.calls[u.ToolCallID] = p
	}
	if u.Title != "" && u.Title != u.ToolName {
		titles, _ := b.stepExtra(i)["tool_titles"].(map[string]string)
		if titles == nil {
			titles = map[string]string{}
			b.stepExtra(i)["tool_titles"] = titles
		}
		titles[u.ToolCallID] = redact.String(u.Title)
	}
	return p
}

// functionName is the harness's own name of a tool, else what the
// harness called the call, else its ACP kind.
func functionName(u *event.Update) string {
	switch {
	case u.ToolName != "":
		return u.ToolName
	case u.Title != "":
		return u.Title
	case u.ToolKind != "":
		return string(u.ToolKind)
	}
	return string(event.ToolOther)
}

// toolUpdate records a tool call's output as the observation of the step
// that made the call. An update of a call never announced adds the call
// to the open agent step first, since the harness reported it only by
// its result.
func (b *TrajectoryBuilder) toolUpdate(ev *event.Event) {
	u := &ev.Update
	p, ok := b.calls[u.ToolCallID]
	if !ok || u.ToolCallID == "" {
		p = b.addCall(b.agent(ev), ev)
	} else if tc := &b.steps[p.step].ToolCalls[p.call]; string(tc.Arguments) == "{}" && len(u.RawInput) > 0 {
		tc.Arguments = arguments(u.RawInput)
	}
	// A result ends the response: the model's next output is a new step.
	b.cur = -1
	text, ok := output(u)
	if !ok && !u.Status.IsTerminal() {
		return
	}
	s := &b.steps[p.step]
	if s.Observation == nil {
		s.Observation = &Observation{}
	}
	if p.result < 0 {
		s.Observation.Results = append(s.Observation.Results, ObservationResult{SourceCallID: u.ToolCallID})
		p.result = len(s.Observation.Results) - 1
	}
	if ok {
		r := &s.Observation.Results[p.result]
		r.Content = &text
	}
}

// output is the text a tool call update carries: its content, else its
// error text, else the harness's structured record as JSON. It is
// redacted when the trajectory is finished.
func output(u *event.Update) (string, bool) {
	switch {
	case u.Content != nil:
		return contentText(u.Content), true
	case u.Message != "":
		return u.Message, true
	case len(u.RawOutput) > 0:
		if s, ok := jsonString(u.RawOutput); ok {
			return s, true
		}
		return string(u.RawOutput), true
	}
	return "", false
}

// usage folds a usage update: a call's into the metrics of its message's
// step, the run's kept for the final metrics.
func (b *TrajectoryBuilder) usage(ev *event.Event) {
	u := &ev.Update
	if u.Scope == event.ScopeRun {
		c := *u
		b.runUsage = &c
		return
	}
	i, ok := b.byMsg[ev.MessageID]
	if !ok {
		i = b.lastAgent()
	}
	if i < 0 {
		return
	}
	s := &b.steps[i]
	if s.Metrics == nil || ev.MessageID != "" {
		// A step is one message: its last snapshot wins. Usage without
		// a message id is per call, and calls add up.
		s.Metrics = &Metrics{}
	}
	m := s.Metrics
	addUsage(&m.PromptTokens, &m.CompletionTokens, &m.CachedTokens, &m.CostUSD,
		u.PromptTokens, u.CompletionTokens, u.CachedTokens, u.CostUSD)
	for k, v := range u.UsageExtra {
		if m.Extra == nil {
			m.Extra = map[string]any{}
		}
		n, _ := m.Extra[k].(int64)
		m.Extra[k] = n + v
	}
}

// lastAgent is the index of the last agent step, -1 for none.
func (b *TrajectoryBuilder) lastAgent() int {
	for i := len(b.steps) - 1; i >= 0; i-- {
		if b.steps[i].Source == SourceAgent {
			return i
		}
	}
	return -1
}

// addUsage adds optional tokens and cost to optional totals; a total
// stays nil while nothing was added to it.
func addUsage(prompt, completion, cached *(*int64), cost **float64, p, c, ca *int64, usd *float64) {
	*prompt, *completion, *cached = add(*prompt, p), add(*completion, c), add(*cached, ca)
	if usd != nil {
		var v float64
		if *cost != nil {
			v = **cost
		}
		v = event.AddUSD(v, *usd)
		*cost = &v
	}
}

// add adds two optional counters: nil only when both are.
func add(a, b *int64) *int64 {
	if b == nil {
		return a
	}
	var v int64
	if a != nil {
		v = *a
	}
	v = event.AddCount(v, *b)
	return &v
}

// jsonString reads a JSON string value.
func jsonString(raw []byte) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
