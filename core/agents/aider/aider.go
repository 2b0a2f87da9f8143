package aider

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// aiderHistoryParser reads a rendered session of an Aider chat history
// (aiderRenderBlock).
type aiderHistoryParser struct{}

// Kind implements Parser.
func (aiderHistoryParser) Kind() agents.Kind { return agents.AiderHistory }

// NewStream implements Parser.
func (aiderHistoryParser) NewStream() agents.Stream { return &aiderStream{} }

// EndsWithResult implements Parser.
func (aiderHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: a render is never met on disk.
func (aiderHistoryParser) Claims([]byte) bool { return false }

// The messages of Aider's own that sift reads as work or as errors: the
// edits it applied (aider/coders/base_coder.py apply_updates), the shell
// commands it ran (handle_shell_commands), its commits (aider/repo.py
// commit), and the errors it reports: a failed request (litellm's
// exceptions, as the request loop prints them, or "Unexpected error"),
// a reply it could not apply, a context too large. A message that is
// none of these is Aider's notice ("Tokens: …", "Added x to the chat").
var (
	aiderEditRe   = regexp.MustCompile(`^Applied edit to (.+)$`)
	aiderRunRe    = regexp.MustCompile(`^Running (.+)$`)
	aiderCommitRe = regexp.MustCompile(`^Commit ([0-9a-f]{7,40}) (.+)$`)
	aiderErrorRe  = regexp.MustCompile(`^(?:Unexpected error: |litellm\.[\w.]*(?:Error|Exception)\b|[A-Z]\w*Error: litellm\.|` +
		`The LLM did not conform to the edit format\.|Only \d+ reflections allowed, stopping\.|Unable to commit: |` +
		`Your estimated chat context of .* exceeds |Model \S+ has hit a token limit!)`)
)

type aiderStream struct {
	id, model string
	ts        time.Time
	calls     int
	// last is what the session's end is judged by: the last reply, or
	// an error or a prompt after it, with its line.
	last     event.Kind
	lastLine agents.Line
	reply    string
	err      string
	// trace is set inside a traceback Aider printed, which goes on to
	// the next input or reply.
	trace bool
}

// Line implements Stream.
func (s *aiderStream) Line(l agents.Line, emit agents.Emit) bool {
	var r aiderRecord
	if json.Unmarshal(l.Bytes, &r) != nil {
		return false
	}
	put := func(u event.Update) {
		emit(&event.Event{SessionID: s.id, Timestamp: s.ts, Model: s.model, Update: u})
	}
	switch {
	case r.Session != nil:
		s.id, s.model = r.Session.ID, r.Session.Model
		s.ts, _ = time.ParseInLocation(aiderTimeLayout, r.Session.Started, time.Local)
		put(event.Update{SessionUpdate: event.SessionStart, Cwd: r.Session.Project, CLIVersion: r.Session.Version})
	case r.User != nil:
		s.trace = false
		s.input(*r.User, l, put)
	case r.Assistant != nil:
		s.trace = false
		s.last, s.lastLine, s.reply = event.AgentMessageChunk, l, *r.Assistant
		put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(*r.Assistant)})
	case r.Note != nil:
		s.note(*r.Note, l, put)
	default:
		return false
	}
	return true
}

// input is the person's input: a prompt, or one of Aider's commands.
// /run and ! run a shell command; /test and /lint send the model the
// failures they find, as a prompt would. The other commands are the
// person's notices to Aider (/add, /drop, /undo, /exit…): a command that
// asks the model something (/ask, /code, /architect, /help) is followed
// by its message as input of its own (base_coder.py run_one writes
// with_message again), which is the prompt.
func (s *aiderStream) input(text string, l agents.Line, put func(event.Update)) {
	cmd, args, _ := strings.Cut(text, " ")
	switch {
	case strings.TrimSpace(text) == "":
		// An empty input ("<blank>") asks nothing.
	case strings.HasPrefix(text, "!"):
		s.call(put, "shell", map[string]string{"command": strings.TrimSpace(text[1:])}, "", "")
	case cmd == "/run" && args != "":
		s.call(put, "shell", map[string]string{"command": strings.TrimSpace(args)}, "", "")
	case strings.HasPrefix(text, "/") && !aiderPrompts(cmd):
		put(event.Update{SessionUpdate: event.System, Subtype: "command", Text: text})
	default:
		s.last, s.lastLine, s.err = event.UserMessageChunk, l, ""
		put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(strings.TrimLeft(text, " "))})
	}
}

// aiderPrompts reports whether an Aider command sends the model a
// message that is not written as input of its own.
func aiderPrompts(cmd string) bool { return cmd == "/test" || cmd == "/lint" }

// note reads one message of Aider's own.
func (s *aiderStream) note(text string, l agents.Line, put func(event.Update)) {
	first, _, _ := strings.Cut(text, "\n")
	switch {
	case aiderEditRe.MatchString(first):
		path := aiderEditRe.FindStringSubmatch(first)[1]
		s.call(put, "edit", map[string]string{"path": path}, "", "")
	case aiderRunRe.MatchString(first):
		s.call(put, "shell", map[string]string{"command": aiderRunRe.FindStringSubmatch(first)[1]}, "", "")
	case aiderCommitRe.MatchString(first):
		s.call(put, "commit", nil, "Commit "+aiderCommitRe.FindStringSubmatch(first)[1]+" "+aiderCommitRe.FindStringSubmatch(first)[2], "")
	case strings.HasPrefix(first, "Unable to commit: "):
		s.call(put, "commit", nil, "Commit", first)
		s.last, s.lastLine, s.err = event.Error, l, first
	case aiderErrorRe.MatchString(first) && !s.trace:
		if s.last != event.Error {
			// The first error since the last prompt or reply says why:
			// the retries after it fail alike.
			s.lastLine, s.err = l, first
		}
		s.last = event.Error
		put(event.Update{SessionUpdate: event.Error, Message: text})
	default:
		// A traceback's lines are its error's: its last line repeats it.
		s.trace = s.trace || strings.HasPrefix(first, "Traceback (most recent call last):")
		if m := aiderModelRe.FindStringSubmatch(first); m != nil {
			s.model = m[1]
		}
		put(event.Update{SessionUpdate: event.System, Subtype: "aider", Text: text})
	}
}

// call emits a call Aider made and its end: it reports a call only once
// done, with no output (a shell command's output is not in the history).
// A failure is its message.
func (s *aiderStream) call(put func(event.Update), name string, input map[string]string, title, failure string) {
	s.calls++
	id := "aider-call-" + strconv.Itoa(s.calls)
	u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: id, Status: event.StatusPending}
	var raw json.RawMessage
	if input != nil {
		raw, _ = json.Marshal(input)
	}
	agents.DescribeTool(&u, name, raw)
	if title != "" {
		u.Title = title
	}
	put(u)
	end := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: id, Status: event.StatusCompleted}
	if failure != "" {
		end.Status, end.Message = event.StatusFailed, failure
	}
	put(end)
}

// Finish implements Stream: a session whose last prompt had its reply
// completed, with that reply. One whose last word is an error (a request
// that failed, retries and all) says nothing more: it ends with that
// error entry, which fails it. A prompt left without either (Aider left
// with ^C while the model was writing) says nothing.
func (s *aiderStream) Finish(emit agents.Emit) {
	if s.last != event.AgentMessageChunk {
		return
	}
	emit(&event.Event{SessionID: s.id, Timestamp: s.ts, Line: s.lastLine.No, Offset: s.lastLine.Offset,
		Update: event.Update{SessionUpdate: event.Result, IsError: event.Bool(false), Subtype: "reply", Text: s.reply}})
}
