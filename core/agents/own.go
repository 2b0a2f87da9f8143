package agents

import (
	"bytes"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/internal/view"
)

// owner gives each emitted event its own copy of the strings and bytes that
// still refer to the line being read. The strings of one event that need a
// copy share one allocation. The session id, model and message id, which
// repeat from line to line, are shared with the previous event when equal.
type owner struct {
	// line is the line being read; all, when set, stands for all memory
	// (keepAll).
	line []byte
	all  bool
	// Last values, shared by the events that repeat them.
	session, model, messageID string
	// refs collects the strings that need a copy; kept to reuse its array.
	refs []*string
}

// Detach gives ev its own copy of what it refers to of line, for a parser
// that holds an event past the line it was made of (the driver's owner only
// sees the line being read when the event is emitted).
func Detach(ev *event.Event, line []byte) {
	var o owner
	o.setLine(line)
	o.own(ev)
}

// KeepAll gives ev its own copy of every string and byte slice it refers
// to, for a parser that holds an event past its line when the events are
// lent: besides the line, its values may refer to the arrays the stream
// reuses from line to line (rawArrays, lineTexts).
func KeepAll(ev *event.Event) {
	o := owner{all: true}
	o.own(ev)
}

// setLine makes b the line being read.
func (o *owner) setLine(b []byte) { o.line = b }

// refers reports whether s points into the line.
func (o *owner) refers(s string) bool {
	return len(s) != 0 && (o.all || view.Within(s, o.line))
}

// refersBytes reports whether b points into the line.
func (o *owner) refersBytes(b []byte) bool {
	return len(b) > 0 && o.refers(view.String(b))
}

// add notes a string to copy if it refers to the line.
func (o *owner) add(p *string) {
	if o.refers(*p) {
		o.refs = append(o.refs, p)
	}
}

// shared replaces *p, if it refers to the line, by last when equal, and
// else notes it to copy.
func (o *owner) shared(p *string, last *string) {
	if !o.refers(*p) {
		return
	}
	if *p == *last {
		*p = *last
		return
	}
	o.refs = append(o.refs, p)
}

// own makes ev independent of the line.
func (o *owner) own(ev *event.Event) {
	o.refs = o.refs[:0]
	o.shared(&ev.SessionID, &o.session)
	o.shared(&ev.Model, &o.model)
	o.shared(&ev.MessageID, &o.messageID)
	o.add(&ev.ParentToolCallID)
	u := &ev.Update
	o.add((*string)(&u.SessionUpdate))
	if c := u.Content; c != nil {
		o.add(&c.Type)
		o.add(&c.Text)
		o.add(&c.MimeType)
		o.add(&c.Data)
	}
	o.add(&u.ToolCallID)
	o.add(&u.ToolName)
	o.add(&u.Title)
	o.add((*string)(&u.ToolKind))
	o.add((*string)(&u.Status))
	for i := range u.Locations {
		o.add(&u.Locations[i].Path)
	}
	for i := range u.Entries {
		o.add(&u.Entries[i].Content)
		o.add(&u.Entries[i].Status)
	}
	o.add(&u.Message)
	o.add((*string)(&u.Scope))
	o.add(&u.Cwd)
	for i := range u.Tools {
		o.add(&u.Tools[i])
	}
	o.add(&u.CLIVersion)
	o.add(&u.Subtype)
	o.add(&u.Text)
	if len(o.refs) > 0 {
		o.copyRefs()
	}
	if o.refersBytes(u.RawInput) {
		u.RawInput = bytes.Clone(u.RawInput)
	}
	if o.refersBytes(u.RawOutput) {
		u.RawOutput = bytes.Clone(u.RawOutput)
	}
	if len(ev.Extra) > 0 || len(u.UsageExtra) > 0 {
		o.ownMaps(ev)
	}
	// The values shared with the next events are the owned ones.
	if ev.SessionID != "" {
		o.session = ev.SessionID
	}
	if ev.Model != "" {
		o.model = ev.Model
	}
	if ev.MessageID != "" {
		o.messageID = ev.MessageID
	}
}

// copyRefs copies the noted strings into one allocation, which no one
// writes again: a strings.Builder grown once, whose text only ever grows,
// so that each string is a slice of its final String.
func (o *owner) copyRefs() {
	n := 0
	for _, p := range o.refs {
		n += len(*p)
	}
	var buf strings.Builder
	buf.Grow(n)
	for _, p := range o.refs {
		buf.WriteString(*p)
	}
	all, at := buf.String(), 0
	for _, p := range o.refs {
		at += len(*p)
		*p = all[at-len(*p) : at]
	}
	clear(o.refs) // keep no string alive
}

// ownMaps copies the keys of Extra and UsageExtra, and the values of Extra
// at any depth (strings, raw JSON and byte slices, and the maps and lists
// that hold them), that refer to the line.
func (o *owner) ownMaps(ev *event.Event) {
	o.ownAnyMap(ev.Extra)
	for k, v := range ev.Update.UsageExtra {
		if o.refers(k) {
			delete(ev.Update.UsageExtra, k)
			ev.Update.UsageExtra[string([]byte(k))] = v
		}
	}
}

// ownAnyMap makes the keys and values of m independent of the line, in
// place.
func (o *owner) ownAnyMap(m map[string]any) {
	for k, v := range m {
		if x, ok := o.ownAny(v); ok {
			m[k] = x
		}
		if o.refers(k) {
			v := m[k]
			delete(m, k)
			m[string([]byte(k))] = v
		}
	}
}

// ownAny returns a copy of v independent of the line, and true, when v is
// a string or bytes that refer to the line; maps and lists are made
// independent in place.
func (o *owner) ownAny(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		if o.refers(x) {
			return string([]byte(x)), true
		}
	case json.RawMessage:
		if o.refersBytes(x) {
			return json.RawMessage(bytes.Clone(x)), true
		}
	case []byte:
		if o.refersBytes(x) {
			return bytes.Clone(x), true
		}
	case map[string]any:
		o.ownAnyMap(x)
	case []any:
		for i, e := range x {
			if y, ok := o.ownAny(e); ok {
				x[i] = y
			}
		}
	}
	return nil, false
}
