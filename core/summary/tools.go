package summary

import (
	"cmp"
	"encoding/json"
	"strings"

	gojson "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/event"
)

// toolCall starts a tool call, or completes the description of one that is
// still open under the same id (harnesses reuse ids across invocations, so a
// closed call's id starts a new call).
func (b *Builder) toolCall(ev *event.Event, at instant, t *turnState) {
	u := &ev.Update
	c := b.callByID[u.ToolCallID]
	if c == nil || !c.open || u.ToolCallID == "" {
		c = b.newCall(ev, at, t)
	} else {
		b.describe(c, u)
	}
	b.apply(c, ev, at)
}

// newCall registers a tool call.
func (b *Builder) newCall(ev *event.Event, at instant, t *turnState) *callState {
	u := &ev.Update
	c := &callState{turn: t, start: at, seen: at, open: true, session: b.keepSession(ev.SessionID), tc: ToolCall{
		ID: strings.Clone(u.ToolCallID), Line: ev.Line, ParentToolCallID: strings.Clone(ev.ParentToolCallID),
	}}
	b.describe(c, u)
	if t != nil {
		t.calls = append(t.calls, c)
	}
	b.calls = append(b.calls, c)
	if u.ToolCallID != "" {
		b.callByID[c.tc.ID] = c
	}
	b.open++
	return c
}

// describe fills a call's name, kind, title and input summary from an
// update, where the update names them.
func (b *Builder) describe(c *callState, u *event.Update) {
	if u.ToolName != "" && u.ToolName != c.tc.Name {
		c.tc.Name = strings.Clone(u.ToolName)
	}
	if u.ToolKind != "" && string(u.ToolKind) != c.tc.Kind {
		c.tc.Kind = strings.Clone(string(u.ToolKind))
	}
	if u.Title != "" {
		c.tc.Title = strings.Clone(redactText(u.Title))
	}
	if len(u.RawInput) > 0 || c.tc.InputSummary == "" {
		if s := inputSummary(u); s != "" {
			c.tc.InputSummary = s
		}
	}
}

// toolUpdate applies a tool call update; an update for an unknown id
// starts the call there (its start is then unknown).
func (b *Builder) toolUpdate(ev *event.Event, at instant) {
	u := &ev.Update
	c := b.callByID[u.ToolCallID]
	if c == nil || u.ToolCallID == "" {
		t := b.turnOf(ev)
		c = b.newCall(ev, instant{}, t)
		c.seen = at
	} else {
		b.describe(c, u)
	}
	b.apply(c, ev, at)
}

// apply folds the state an update carries into its call.
func (b *Builder) apply(c *callState, ev *event.Event, at instant) {
	u := &ev.Update
	if c.turn != nil && c.open {
		// A late verdict on a finished call (a denial listed on the
		// result line) does not stretch its turn.
		b.touch(c.turn, ev, at)
	}
	if u.ExitCode != nil {
		c.tc.ExitCode = u.ExitCode
	}
	if !u.StartedAt.IsZero() {
		c.hStart = u.StartedAt
	}
	if !u.EndedAt.IsZero() {
		c.hEnd = u.EndedAt
	}
	if u.Content != nil {
		n := int64(len(u.Content.Text) + len(u.Content.Data))
		if c.tc.OutputBytes == nil || u.Status.IsTerminal() {
			c.tc.OutputBytes = &n
		} else {
			*c.tc.OutputBytes = max(*c.tc.OutputBytes, n)
		}
	}
	if u.ApprovalRequired && !c.tc.ApprovalRequired {
		c.tc.ApprovalRequired = true
		c.success = false
		c.tc.Success = &c.success
		msg := u.Message
		if msg == "" {
			msg = "approval required"
		}
		c.approvalAt, c.approvalLine, c.approvalMsg = at, ev.Line, redactText(firstLine(msg))
	}
	if !u.Status.IsTerminal() {
		return
	}
	if u.DurationMs != nil && c.explicit == nil {
		c.explicit = u.DurationMs
	}
	if !c.open {
		// A second verdict (a permission denial reported at the end)
		// only adds what the first lacked.
		return
	}
	c.open = false
	b.open--
	c.end = at
	c.tc.EndLine = ev.Line
	// A call that was asked about and then ran was approved; one that
	// failed after an approval stop was denied.
	ok := u.Status == event.StatusCompleted
	c.success = ok
	c.tc.Success = &c.success
	b.waitingLLM = true
	if c.turn != nil && c.tc.ParentToolCallID == "" && c.turn == b.cur {
		b.closeTurn()
	}
	if ok {
		c.outcome = outcomeSummary(c, u)
		return
	}
	msg := u.Message
	if msg == "" {
		msg = contentText(u.Content)
	}
	if msg != "" {
		e := redactText(capText(strings.TrimSpace(msg), maxErrorText))
		c.tc.Error = &e
	}
	if c.tc.ApprovalRequired {
		return
	}
	c.outcome = outcomeSummary(c, u)
	c.errKind = "tool_error"
	if c.tc.ExitCode != nil && *c.tc.ExitCode != 0 {
		c.errKind = "exit_code"
	}
}

// outcomeSummary is the one-line summary of a finished call.
func outcomeSummary(c *callState, u *event.Update) string {
	var parts []string
	if c.tc.ExitCode != nil {
		parts = append(parts, "exit "+itoa(int64(*c.tc.ExitCode)))
	}
	if c.tc.Error != nil {
		parts = append(parts, firstLine(*c.tc.Error))
	} else if s := firstLine(strings.TrimSpace(contentText(u.Content))); s != "" {
		parts = append(parts, redactText(s))
	}
	if len(parts) == 0 {
		if c.tc.Success != nil && *c.tc.Success {
			return "completed"
		}
		return "failed"
	}
	return strings.Join(parts, ": ")
}

// inputFields are the input fields that best say what a call does, tried
// in this order. Decoding into a struct lets the decoder skip everything
// else (a whole file being written) without building it.
type inputFields struct {
	Command       json.RawMessage `json:"command"`
	Cmd           json.RawMessage `json:"cmd"`
	FilePath      json.RawMessage `json:"file_path"`
	FilePathCamel json.RawMessage `json:"filePath"`
	Path          json.RawMessage `json:"path"`
	NotebookPath  json.RawMessage `json:"notebook_path"`
	AbsolutePath  json.RawMessage `json:"absolute_path"`
	Pattern       json.RawMessage `json:"pattern"`
	Query         json.RawMessage `json:"query"`
	Glob          json.RawMessage `json:"glob"`
	URL           json.RawMessage `json:"url"`
	Description   json.RawMessage `json:"description"`
	Prompt        json.RawMessage `json:"prompt"`
	DirPath       json.RawMessage `json:"dir_path"`
	DirectoryPath json.RawMessage `json:"directory_path"`
	Folder        json.RawMessage `json:"folder"`
	Patterns      json.RawMessage `json:"patterns"`
	Skill         json.RawMessage `json:"skill"`
	Name          json.RawMessage `json:"name"`
	Changes       json.RawMessage `json:"changes"`
	Todos         json.RawMessage `json:"todos"`
	Task          json.RawMessage `json:"task"`
	Fact          json.RawMessage `json:"fact"`
}

func (f *inputFields) ordered() []json.RawMessage {
	return []json.RawMessage{
		f.Command, f.Cmd, f.FilePath, f.FilePathCamel, f.Path, f.NotebookPath, f.AbsolutePath,
		f.Pattern, f.Query, f.Glob, f.URL, f.Description, f.Prompt, f.DirPath, f.DirectoryPath,
		f.Patterns, f.Folder, f.Skill, f.Name, f.Changes, f.Todos,
		f.Task, f.Fact,
	}
}

// inputSummary returns a redacted one-line summary of a call's input.
func inputSummary(u *event.Update) string {
	s := ""
	if in := u.RawInput; len(in) > 0 && in[0] == '{' {
		var f inputFields
		if gojson.Unmarshal(in, &f) == nil {
			for _, v := range f.ordered() {
				if s = jsonString(v); s != "" {
					break
				}
			}
		}
		if s == "" {
			s = string(in[:min(len(in), 4*maxLine)])
		}
	} else if len(in) > 0 {
		if s = jsonString(in); s == "" {
			s = string(in[:min(len(in), 4*maxLine)])
		}
	}
	if s == "" && u.Title != "" && u.Title != u.ToolName {
		s = u.Title
		if i := strings.Index(s, ": "); i > 0 && i < 12 {
			s = s[i+2:]
		}
	}
	if s == "" && len(u.Locations) > 0 {
		s = u.Locations[0].Path
	}
	return redactText(firstLine(s))
}

// jsonString returns a JSON string's value, the words of an array of
// strings joined by spaces, or for an array of objects (file changes, todo
// items) their paths or texts joined by commas.
func jsonString(v json.RawMessage) string {
	if len(v) == 0 {
		return ""
	}
	switch v[0] {
	case '"':
		var s string
		if gojson.Unmarshal(v, &s) == nil {
			return s
		}
	case '[':
		var ss []string
		if gojson.Unmarshal(v, &ss) == nil {
			return strings.Join(ss, " ")
		}
		var items []struct {
			Path    string `json:"path"`
			Content string `json:"content"`
			Text    string `json:"text"`
		}
		if gojson.Unmarshal(v, &items) == nil {
			parts := make([]string, 0, len(items))
			for _, it := range items {
				if p := cmp.Or(it.Path, it.Content, it.Text); p != "" {
					parts = append(parts, p)
				}
			}
			return strings.Join(parts, ", ")
		}
	}
	return ""
}
