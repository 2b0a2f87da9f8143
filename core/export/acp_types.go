package export

import (
	"encoding/json"

	"github.com/agentsift/sift/core/event"
)

// acpChunk is ACP's ContentChunk update.
type acpChunk struct {
	SessionUpdate string     `json:"sessionUpdate"`
	Content       acpContent `json:"content"`
	MessageID     string     `json:"messageId,omitempty"`
}

// acpContent is an ACP text or image content block.
type acpContent struct {
	Type string `json:"type"`
	// Text is set, possibly empty, on a text block only.
	Text     *string `json:"text,omitempty"`
	Data     string  `json:"data,omitempty"`
	MimeType string  `json:"mimeType,omitempty"`
}

// acpToolCall is ACP's ToolCall and ToolCallUpdate; only the update may
// leave the title out.
type acpToolCall struct {
	SessionUpdate string           `json:"sessionUpdate"`
	ToolCallID    string           `json:"toolCallId"`
	Title         string           `json:"title,omitempty"`
	Name          string           `json:"name,omitempty"`
	Kind          string           `json:"kind,omitempty"`
	Status        string           `json:"status,omitempty"`
	Content       []acpToolContent `json:"content,omitempty"`
	Locations     []acpLocation    `json:"locations,omitempty"`
	RawInput      json.RawMessage  `json:"rawInput,omitempty"`
	RawOutput     json.RawMessage  `json:"rawOutput,omitempty"`
}

// acpToolContent is ACP's ToolCallContent of type "content".
type acpToolContent struct {
	Type    string     `json:"type"`
	Content acpContent `json:"content"`
}

// acpLocation is ACP's ToolCallLocation.
type acpLocation struct {
	Path string `json:"path"`
	Line *int   `json:"line,omitempty"`
}

// acpPlan is ACP's Plan update.
type acpPlan struct {
	SessionUpdate string         `json:"sessionUpdate"`
	Entries       []acpPlanEntry `json:"entries"`
}

// acpPlanEntry is ACP's PlanEntry: priority and status are required.
type acpPlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// acpInfo is ACP's SessionInfoUpdate with none of its optional fields:
// the carrier of sift's own kinds, which are in _meta.
type acpInfo struct {
	SessionUpdate string `json:"sessionUpdate"`
}

// contentBlock is the ACP block of a content, an empty text for none.
func contentBlock(c *event.Content) acpContent {
	if c == nil {
		return textBlock("")
	}
	if c.Type == "image" {
		return acpContent{Type: "image", Data: c.Data, MimeType: c.MimeType}
	}
	return textBlock(c.Text)
}

func textBlock(s string) acpContent { return acpContent{Type: "text", Text: &s} }

// toolContent is a tool call's output as ACP content: its content block,
// else its error text.
func toolContent(u *event.Update) []acpToolContent {
	switch {
	case u.Content != nil:
		return []acpToolContent{{Type: "content", Content: contentBlock(u.Content)}}
	case u.Message != "":
		return []acpToolContent{{Type: "content", Content: textBlock(u.Message)}}
	}
	return nil
}

func locations(ls []event.Location) []acpLocation {
	out := make([]acpLocation, len(ls))
	for i, l := range ls {
		out[i].Path = l.Path
		if l.Line > 0 {
			out[i].Line = &l.Line
		}
	}
	return out
}

// toolMeta keeps what ACP has no field for of a tool call.
func toolMeta(u *event.Update, meta map[string]any) {
	if u.ExitCode != nil {
		meta["exitCode"] = *u.ExitCode
	}
	if u.ApprovalRequired {
		meta["approvalRequired"] = true
	}
	if !u.StartedAt.IsZero() {
		meta["startedAt"] = stamp(u.StartedAt)
	}
	if !u.EndedAt.IsZero() {
		meta["endedAt"] = stamp(u.EndedAt)
	}
	if u.DurationMs != nil {
		meta["durationMs"] = *u.DurationMs
	}
	if u.Content != nil && u.Message != "" {
		meta["error"] = u.Message
	}
}

// planEntries are a plan's entries as ACP wants them. ACP requires a
// priority, which no harness prints: each entry is "medium" and meta says
// the priority is not known. A status outside ACP's three is "pending",
// with the harness's word in meta.
func planEntries(es []event.PlanEntry, meta map[string]any) []acpPlanEntry {
	out := make([]acpPlanEntry, len(es))
	var odd map[string]string
	for i, e := range es {
		st := e.Status
		switch st {
		case "pending", "in_progress", "completed":
		default:
			if odd == nil {
				odd = map[string]string{}
			}
			odd[e.Content] = e.Status
			st = "pending"
		}
		out[i] = acpPlanEntry{Content: e.Content, Priority: "medium", Status: st}
	}
	meta["planPriority"] = "unknown"
	if odd != nil {
		meta["planStatus"] = odd
	}
	return out
}
