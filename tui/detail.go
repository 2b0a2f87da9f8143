package tui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
)

// maxDetailBytes caps how much output of one call the detail keeps.
const maxDetailBytes = 4 << 20

// callDetail is what re-parsing the stream says about one tool call.
type callDetail struct {
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

// fileDetail is the re-parsed detail of one stream file: each call's, by
// id, and the conversation around them.
type fileDetail struct {
	calls map[string]*callDetail
	conv  conversation
}

// parseDetail re-parses a stream file and collects every tool call's
// input, output, error and lines, and the conversation. It runs off the
// UI goroutine.
func parseDetail(reg *agents.Registry, open func(string) (*os.File, error), path, agent string) (*fileDetail, error) {
	f, err := open(path)
	if err != nil {
		return nil, fmt.Errorf("open stream: %w", err)
	}
	defer f.Close()
	fd := &fileDetail{calls: map[string]*callDetail{}}
	opt := agents.Options{}
	if _, err := reg.Lookup(agents.Kind(agent)); err == nil {
		opt.Agent = agents.Kind(agent)
	}
	_, err = reg.Parse(f, opt, func(ev *event.Event) {
		fd.conv.addEvent(ev)
		u := &ev.Update
		if u.ToolCallID == "" || (u.SessionUpdate != event.ToolCall && u.SessionUpdate != event.ToolCallUpdate) {
			return
		}
		cd := fd.calls[u.ToolCallID]
		if cd == nil {
			cd = &callDetail{}
			fd.calls[u.ToolCallID] = cd
		}
		cd.add(ev)
	})
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return fd, nil
}

// add folds one event of the call into the detail.
func (cd *callDetail) add(ev *event.Event) {
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
		if cd.Output.Len()+len(text) > maxDetailBytes {
			cd.Output.WriteString(text[:maxDetailBytes-cd.Output.Len()])
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

// rawLines reads the given 1-based lines of a file, or lines from..to when
// want is empty.
func rawLines(open func(string) (*os.File, error), path string, want []int, from, to int) ([]string, error) {
	f, err := open(path)
	if err != nil {
		return nil, fmt.Errorf("open stream: %w", err)
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
