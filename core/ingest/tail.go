package ingest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/summary"
)

// Tail follows a stream file while an agent writes it (a running `sift
// run`): each Advance reads only the bytes appended since the last one,
// parses the complete lines among them and folds their events into the
// live view (Live). It never reads a byte twice: the parse runs once over
// the file, in a goroutine of its own, and waits at the end of the file
// until Advance lets it read on; a line not yet complete waits in the
// parser's buffer for the rest of it.
//
// A Tail is for one goroutine: Advance, Live and Close are not safe for
// concurrent use.
type Tail struct {
	f    *os.File
	live Live
	// wake lets the parse read on; caught says it reached the end of
	// what was written; stop ends it; done is closed when it returned,
	// with err.
	wake, caught, stop, done chan struct{}
	err                      error
	now                      func() time.Time
}

// Live is what a Tail knows of a running session so far. Its figures are
// the ones a running row needs; the session's full summary is made once
// the run ends, by reading the file (CompleteWorkItem).
type Live struct {
	// Lines and Bytes are the lines parsed and the bytes read.
	Lines int
	Bytes int64
	// SessionID and Model are the harness's, once a line named them.
	SessionID, Model string
	// Started and Last are the times of the first and the last event
	// that carried one.
	Started, Last time.Time
	// LastRead is when the last complete line was read (the clock of the
	// reader, for a stall: the stream's own times may be absent).
	LastRead time.Time
	// ToolCalls counts the calls started, Errors the failed ones and the
	// error events, Approvals the calls stopped for an approval.
	ToolCalls, Errors, Approvals int
	// Tool is the name of the latest call still open, "" when none is.
	Tool string
	// Approval is set while the latest call stopped for an approval and
	// nothing happened since.
	Approval bool
	// Ended is set once the harness wrote its result line.
	Ended bool

	// open holds the open calls' names by id, in start order (order).
	open  map[string]string
	order []string
}

// NewTail opens a stream file being written by an agent of the given
// harness ("" sniffs it) and reads what it holds so far.
func NewTail(path string, agent string) (*Tail, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tail %s: %w", path, err)
	}
	t := &Tail{f: f, wake: make(chan struct{}), caught: make(chan struct{}), stop: make(chan struct{}),
		done: make(chan struct{}), now: time.Now}
	t.live.open = map[string]string{}
	go t.parse(agents.Kind(agent))
	t.wait()
	return t, nil
}

// parse is the one parse of the file, fed by the follow reader.
func (t *Tail) parse(kind agents.Kind) {
	defer close(t.done)
	defer func() {
		if p := recover(); p != nil {
			t.err = fmt.Errorf("tail: internal error after line %d: %s", t.live.Lines,
				strings.Join(strings.Fields(fmt.Sprint(p)), " "))
		}
	}()
	_, err := agents.Default().Parse(follow{t}, agents.Options{Agent: kind, Borrow: true}, t.add)
	if err != nil && t.err == nil {
		t.err = err
	}
}

// wait waits until the parse caught up with the file, or ended.
func (t *Tail) wait() {
	select {
	case <-t.caught:
	case <-t.done:
	}
}

// Advance reads and parses the bytes appended since the last call (the
// complete lines among them) and returns the live view. After the parse
// ended (Close, a fault) it returns the view as it was, with the error.
func (t *Tail) Advance() (*Live, error) {
	select {
	case <-t.done:
		return &t.live, t.err
	case t.wake <- struct{}{}:
	}
	t.wait()
	return &t.live, t.err
}

// Live returns the live view as of the last Advance.
func (t *Tail) Live() *Live { return &t.live }

// Close ends the parse (its last, incomplete line is parsed as it is)
// and closes the file.
func (t *Tail) Close() error {
	select {
	case <-t.done:
	default:
		close(t.stop)
		<-t.done
	}
	return errors.Join(t.err, t.f.Close())
}

// follow reads a Tail's file on: at its end it says the parse caught up
// and waits for Advance (more) or Close (the end of the stream).
type follow struct{ t *Tail }

// Read implements io.Reader.
func (r follow) Read(p []byte) (int, error) {
	t := r.t
	for {
		n, err := t.f.Read(p)
		t.live.Bytes += int64(n)
		if n > 0 {
			return n, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		select {
		case t.caught <- struct{}{}:
		case <-t.stop:
			return 0, io.EOF
		}
		select {
		case <-t.wake:
		case <-t.stop:
			return 0, io.EOF
		}
	}
}

// add folds one event into the live view.
func (t *Tail) add(ev *event.Event) {
	l := &t.live
	if ev.Line > l.Lines {
		l.Lines = ev.Line
		l.LastRead = t.now()
	}
	// The harness's names are shown as a summary shows them: redacted.
	if ev.SessionID != "" && l.SessionID == "" {
		l.SessionID = redact.String(strings.Clone(ev.SessionID))
	}
	if ev.Model != "" && l.Model != ev.Model {
		l.Model = redact.String(strings.Clone(ev.Model))
	}
	if !ev.Timestamp.IsZero() {
		if l.Started.IsZero() {
			l.Started = ev.Timestamp
		}
		l.Last = ev.Timestamp
	}
	u := &ev.Update
	switch u.SessionUpdate {
	case event.ToolCall:
		l.Approval = false
		// The event is lent: the map keeps a copy of the id (an
		// assignment replaces an existing string key with the new one).
		id := strings.Clone(u.ToolCallID)
		if _, ok := l.open[id]; !ok {
			l.ToolCalls++
			l.order = append(l.order, id)
		}
		l.open[id] = toolName(u)
		t.call(u)
	case event.ToolCallUpdate:
		if name := toolName(u); name != "" {
			if _, ok := l.open[u.ToolCallID]; ok {
				l.open[strings.Clone(u.ToolCallID)] = name
			}
		}
		t.call(u)
	case event.Error:
		l.Errors++
	case event.Result:
		l.Ended = true
	case event.AgentMessageChunk, event.UserMessageChunk:
		l.Approval = false
	}
	l.Tool = ""
	if n := len(l.order); n > 0 {
		l.Tool = l.open[l.order[n-1]]
	}
}

// call closes a call whose update ends it.
func (t *Tail) call(u *event.Update) {
	l := &t.live
	if u.ApprovalRequired {
		l.Approvals++
		l.Approval = true
	}
	if !u.Status.IsTerminal() && !u.ApprovalRequired {
		return
	}
	if u.Status == event.StatusFailed && !u.ApprovalRequired {
		l.Errors++
	}
	if _, ok := l.open[u.ToolCallID]; !ok {
		return
	}
	delete(l.open, u.ToolCallID)
	for i, id := range l.order {
		if id == u.ToolCallID {
			l.order = append(l.order[:i], l.order[i+1:]...)
			break
		}
	}
}

// toolName is a call's display name: its tool's name, else its title,
// redacted and then cut (summary.ClipLine).
func toolName(u *event.Update) string {
	if u.ToolName != "" {
		return summary.ClipLine(u.ToolName, summary.MaxTitle)
	}
	return summary.ClipLine(u.Title, summary.MaxTitle)
}

// Waiting says what a running session waits for, as of now: an approval
// (Live.Approval), a stall (no line for the threshold; 0 means the
// summary's default), or nothing ("").
func (l *Live) Waiting(now time.Time, stall time.Duration) string {
	if stall <= 0 {
		stall = summary.DefaultStallThreshold
	}
	switch {
	case l.Ended:
		return ""
	case l.Approval:
		return "approval"
	case !l.LastRead.IsZero() && now.Sub(l.LastRead) >= stall:
		return "stall"
	}
	return ""
}

// Summary is the live view as a summary, for the running session's row:
// its figures so far, the approval and stall flags it raised, and the
// running outcome (the run has not ended). The caller fills the work item,
// file name, phase and iteration.
func (l *Live) Summary(agent string, start time.Time, wait string) *summary.Summary {
	s := &summary.Summary{
		AgentKind: agent, SessionID: l.SessionID, Model: l.Model,
		LineCount: l.Lines, ByteCount: l.Bytes,
		ToolCallCount: l.ToolCalls, ErrorCount: l.Errors, ApprovalCount: l.Approvals,
		Outcome: summary.OutcomeRunning, Flags: []summary.Flag{},
	}
	started := l.Started
	if started.IsZero() {
		started = start
	}
	if !started.IsZero() {
		s.StartedAt = &started
	}
	if l.Approvals > 0 {
		s.Flags = append(s.Flags, summary.FlagApproval)
	}
	if wait == "stall" {
		s.Flags = append(s.Flags, summary.FlagStall)
	}
	s.Flagged = len(s.Flags) > 0
	return s
}
