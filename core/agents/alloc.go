package agents

import "github.com/agentsift/sift/core/event"

// eventWithContent is an event and its content block in one allocation:
// most events that carry content (message and thought chunks, tool output)
// would otherwise cost two.
type eventWithContent struct {
	ev      event.Event
	content event.Content
}

// contentEvent returns a copy of base whose update is u with content c,
// the two allocated together.
func contentEvent(base *event.Event, u event.Update, c event.Content) *event.Event {
	x := &eventWithContent{ev: *base, content: c}
	x.ev.Update = u
	x.ev.Update.Content = &x.content
	return &x.ev
}

// textContent is a text content block.
func textContent(s string) event.Content { return event.Content{Type: "text", Text: s} }

// imageContent is an image content block.
func imageContent(mime, data string) event.Content {
	return event.Content{Type: "image", MimeType: mime, Data: data}
}

// boxedWord returns s as an interface value without an allocation for the
// words harnesses repeat on many lines (stop reasons, severities), which
// are boxed from constants; any other string is boxed as it is.
func boxedWord(s string) any {
	switch s {
	case "end_turn":
		return "end_turn"
	case "tool_use":
		return "tool_use"
	case "max_tokens":
		return "max_tokens"
	case "stop_sequence":
		return "stop_sequence"
	case "pause_turn":
		return "pause_turn"
	case "refusal":
		return "refusal"
	}
	return s
}
