package tui

import (
	"sort"
	"strconv"
	"strings"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
)

// maxConversationBytes caps each part of the conversation a re-parse
// keeps: a stream of gigabytes of text shows its first 4 MiB of each.
const maxConversationBytes = 4 << 20

// conversation is what the session screen shows of a stream that the
// summary keeps only the start of, or nothing: the prompts, what the main
// agent said and thought (placed in turns by their lines), the harness's
// errors and the captured stderr lines. Each text is redacted; a
// subagent's words stay in its calls.
type conversation struct {
	prompts, said, thought, errors, stderr convPart
}

// convPart is one kind of text of a conversation, in stream order.
type convPart struct {
	lines []convLine
	size  int
	cut   bool
}

// convLine is one event's text and its stream line.
type convLine struct {
	line int
	text string
}

// add keeps one event's text, up to the cap.
func (p *convPart) add(line int, text string) {
	if text == "" || p.cut {
		return
	}
	if p.size+len(text) > maxConversationBytes {
		p.cut = true
		text = strings.ToValidUTF8(text[:maxConversationBytes-p.size], "") + "\n[… cut at 4 MiB]"
	}
	p.size += len(text)
	// A copy: the parse may lend its events.
	p.lines = append(p.lines, convLine{line: line, text: strings.Clone(redact.String(text))})
}

// addEvent folds one event into the conversation.
func (c *conversation) addEvent(ev *event.Event) {
	u := &ev.Update
	text := ""
	if u.Content != nil && u.Content.Type == "text" {
		text = u.Content.Text
	}
	top := ev.ParentToolCallID == ""
	switch u.SessionUpdate {
	case event.UserMessageChunk:
		if top {
			c.prompts.add(ev.Line, text)
		}
	case event.AgentMessageChunk:
		if top {
			c.said.add(ev.Line, text)
		}
	case event.AgentThoughtChunk:
		if top {
			c.thought.add(ev.Line, text)
		}
	case event.Error:
		c.errors.add(ev.Line, u.Message)
	case event.Stderr:
		c.stderr.add(ev.Line, strings.TrimRight(u.Text, "\r\n"))
	}
}

// between returns the lines of a part from line from to line to.
func (p *convPart) between(from, to int) []convLine {
	i := sort.Search(len(p.lines), func(i int) bool { return p.lines[i].line >= from })
	j := sort.Search(len(p.lines), func(i int) bool { return p.lines[i].line > to })
	return p.lines[i:max(i, j)]
}

// joinChunks joins the texts of consecutive events: a delta that goes on
// the one before (it starts or the other ends with a space, or both are
// on one line) directly, separate messages with a newline.
func joinChunks(ls []convLine) string {
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			prev := ls[i-1]
			glued := prev.line == l.line || strings.HasSuffix(prev.text, " ") || strings.HasPrefix(l.text, " ") ||
				strings.HasSuffix(prev.text, "\n")
			if !glued {
				b.WriteString("\n")
			}
		}
		b.WriteString(l.text)
	}
	return b.String()
}

// withLines lists texts each after its line number: "line 4: …".
func withLines(ls []convLine) string {
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("line " + strconv.Itoa(l.line) + ": " + strings.TrimRight(l.text, "\n"))
	}
	return b.String()
}
