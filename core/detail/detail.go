// Package detail reads a session's stream again, after its import, for
// what the summary keeps only the start of or nothing: its events (Parse,
// which the exports write out), each tool call's whole input, output and
// error with the lines of its events, the conversation (the prompts, what
// the agent said and thought, the harness's errors, stderr), and raw
// lines. Every text Read and RawLines return is redacted. It is the one
// reader of an imported stream: the inbox and the exports read through
// it, and never parse a stream themselves.
package detail

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
)

// maxCallBytes caps how much output of one call the detail keeps.
const maxCallBytes = 4 << 20

// Call is what the stream says about one tool call, redacted.
type Call struct {
	Input     json.RawMessage
	Output    strings.Builder
	RawOutput json.RawMessage
	Error     string
	ExitCode  *int
	Locations []event.Location
	// Lines are the stream lines of the call's events.
	Lines []int
	cut   bool
}

// File is the detail of one stream file: each call's, by id, and the
// conversation around them.
type File struct {
	Calls map[string]*Call
	Conv  Conversation
}

// Reader reads stream files again. Open opens one: the program's opens
// only regular files inside sift's folders, since a session row's path
// is data; nil opens regular files anywhere (OpenRegular).
type Reader struct {
	Open func(path string) (*os.File, error)
}

// open opens a file with the reader's opener.
func (r Reader) open(path string) (*os.File, error) {
	open := r.Open
	if open == nil {
		open = OpenRegular
	}
	f, err := open(path)
	if err != nil {
		return nil, fmt.Errorf("open stream: %w", err)
	}
	return f, nil
}

// Read parses a stream file (agent names its harness; an unknown or empty
// one sniffs) and collects every tool call's input, output, error and
// lines, and the conversation.
func (r Reader) Read(path, agent string) (*File, error) {
	f, err := r.open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fd := &File{Calls: map[string]*Call{}}
	if _, err := agents.Default().Lookup(agents.Kind(agent)); err != nil {
		agent = ""
	}
	_, err = Parse(f, agent, false, func(ev *event.Event) {
		fd.Conv.addEvent(ev)
		u := &ev.Update
		if u.ToolCallID == "" || (u.SessionUpdate != event.ToolCall && u.SessionUpdate != event.ToolCallUpdate) {
			return
		}
		cd := fd.Calls[u.ToolCallID]
		if cd == nil {
			cd = &Call{}
			fd.Calls[u.ToolCallID] = cd
		}
		cd.add(ev)
	})
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return fd, nil
}

// Parse reads a stream and hands fn each of its events, in order: agent
// names its harness (empty sniffs; an unknown one is an error). With lend,
// fn sees events whose memory the next one reuses (agents.Options.Borrow),
// for a reader that keeps nothing of them. It fails only when the reader
// does; bad lines are data.
func Parse(r io.Reader, agent string, lend bool, fn func(*event.Event)) (event.Stats, error) {
	return agents.Default().Parse(r, agents.Options{Agent: agents.Kind(agent), Borrow: lend}, fn)
}

// add folds one event of the call into the detail.
func (cd *Call) add(ev *event.Event) {
	u := &ev.Update
	if len(cd.Lines) == 0 || cd.Lines[len(cd.Lines)-1] != ev.Line {
		cd.Lines = append(cd.Lines, ev.Line)
	}
	if len(u.RawInput) > 0 {
		cd.Input = redact.Bytes(u.RawInput)
	}
	if len(u.RawOutput) > 0 {
		cd.RawOutput = redact.Bytes(u.RawOutput)
	}
	if u.Content != nil && u.Content.Type == "text" && !cd.cut {
		text := redact.String(u.Content.Text)
		if cd.Output.Len()+len(text) > maxCallBytes {
			cd.Output.WriteString(text[:maxCallBytes-cd.Output.Len()])
			cd.Output.WriteString("\n[… output cut at 4 MiB]")
			cd.cut = true
		} else {
			cd.Output.WriteString(text)
		}
	}
	if u.Content != nil && u.Content.Type == "image" {
		fmt.Fprintf(&cd.Output, "[image %s, %d bytes of base64]\n", u.Content.MimeType, len(u.Content.Data))
	}
	if u.Message != "" {
		cd.Error = redact.String(u.Message)
	}
	if u.ExitCode != nil {
		cd.ExitCode = u.ExitCode
	}
	if len(u.Locations) > 0 {
		cd.Locations = u.Locations
	}
}

// RawLines reads the given 1-based lines of a stream file, or lines
// from..to when want is empty, redacted.
func (r Reader) RawLines(path string, want []int, from, to int) ([]string, error) {
	f, err := r.open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	set := map[int]bool{}
	for _, l := range want {
		set[l] = true
	}
	if len(set) == 0 {
		for l := from; l <= max(to, from); l++ {
			set[l] = true
		}
	}
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), agents.DefaultMaxLine)
	for n := 1; sc.Scan(); n++ {
		if set[n] {
			out = append(out, redact.String(sc.Text()))
		}
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("read stream: %w", err)
	}
	return out, nil
}

// OpenRegular opens a stream file that is a regular file: never a FIFO or
// a device, which a row's path could name and which would block or never
// end.
func OpenRegular(path string) (*os.File, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return os.Open(path)
}
