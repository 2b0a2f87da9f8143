package detail

import (
	"sort"
	"strings"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
)

// maxConversationBytes caps each part of the conversation a re-read
// keeps: a stream of gigabytes of text shows its first 4 MiB of each.
const maxConversationBytes = 4 << 20

// Conversation is what a stream says that the summary keeps only the
// start of, or nothing: the prompts, what the main agent said and
// thought, the harness's errors and the captured stderr lines. Each text
// is redacted; a subagent's words stay in its calls.
type Conversation struct {
	Prompts, Said, Thought, Errors, Stderr Part
}

// Part is one kind of text of a conversation, in stream order. Cut says
// it reached its cap (4 MiB), its last text marked so.
type Part struct {
	Lines []Line
	Cut   bool
	size  int
}

// Line is one event's text and its stream line.
type Line struct {
	Line int
	Text string
}

// add keeps one event's text, up to the cap.
func (p *Part) add(line int, text string) {
	if text == "" || p.Cut {
		return
	}
	if p.size+len(text) > maxConversationBytes {
		p.Cut = true
		text = strings.ToValidUTF8(text[:maxConversationBytes-p.size], "") + "\n[… cut at 4 MiB]"
	}
	p.size += len(text)
	// A copy: the parse may lend its events.
	p.Lines = append(p.Lines, Line{Line: line, Text: strings.Clone(redact.String(text))})
}

// addEvent folds one event into the conversation.
func (c *Conversation) addEvent(ev *event.Event) {
	u := &ev.Update
	text := ""
	if u.Content != nil && u.Content.Type == "text" {
		text = u.Content.Text
	}
	top := ev.ParentToolCallID == ""
	switch u.SessionUpdate {
	case event.UserMessageChunk:
		if top {
			c.Prompts.add(ev.Line, text)
		}
	case event.AgentMessageChunk:
		if top {
			c.Said.add(ev.Line, text)
		}
	case event.AgentThoughtChunk:
		if top {
			c.Thought.add(ev.Line, text)
		}
	case event.Error:
		c.Errors.add(ev.Line, u.Message)
	case event.Stderr:
		c.Stderr.add(ev.Line, strings.TrimRight(u.Text, "\r\n"))
	}
}

// Between returns the lines of a part from line from to line to.
func (p *Part) Between(from, to int) []Line {
	i := sort.Search(len(p.Lines), func(i int) bool { return p.Lines[i].Line >= from })
	j := sort.Search(len(p.Lines), func(i int) bool { return p.Lines[i].Line > to })
	return p.Lines[i:max(i, j)]
}
