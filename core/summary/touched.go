package summary

import (
	"strings"

	"github.com/agentsift/sift/core/edit"
	"github.com/agentsift/sift/core/event"
)

// MaxFilesTouched caps the files a summary lists: a session that touched
// more lists the first ones it touched, and counts them all
// (FilesTouchedCount). The list rides in the brief summary a session list
// shows, which must not grow with the session.
const MaxFilesTouched = 10

// FileTouched is a file the session's tool calls changed, as their inputs
// say (core/edit): an edit tool's diff, a patch, a file written whole, a
// shell command that names the file it writes. A call that failed or was
// denied changed nothing and is not counted.
type FileTouched struct {
	// Path is the path as the calls name it, redacted: relative paths
	// are the agent's working directory's.
	Path string `json:"path"`
	// Action is the last thing done to it: edit, write, move or delete.
	Action string `json:"action"`
	// Added and Removed are the lines the calls' inputs add and remove;
	// nil when no call's input says (a shell command, codex's
	// file_change).
	Added   *int `json:"added"`
	Removed *int `json:"removed"`
	// Calls counts the calls that touched it; Line is the stream line of
	// the first.
	Calls int `json:"calls"`
	Line  int `json:"line"`
}

// callTouch is what one call's input says it changes.
type callTouch struct {
	call    *callState
	touches []edit.Touch
}

// noteTouched reads what a call changes from an update that carries its
// input or locations; a later input of the same call replaces it.
func (b *Builder) noteTouched(c *callState, u *event.Update) {
	if len(u.RawInput) == 0 && len(u.Locations) == 0 {
		return
	}
	ts := edit.Touched(c.name, c.kind, u.RawInput, u.Locations)
	for i := range ts {
		// A location's path may point into the event, which is lent.
		ts[i].Path = strings.Clone(ts[i].Path)
	}
	for i := range b.touched {
		if b.touched[i].call == c {
			if len(ts) > 0 || len(u.RawInput) > 0 {
				b.touched[i].touches = ts
			}
			return
		}
	}
	if len(ts) > 0 {
		b.touched = append(b.touched, callTouch{call: c, touches: ts})
	}
}

// filesTouched lists the files the calls changed, in the order first
// touched, skipping the calls that failed or were denied.
func (b *Builder) filesTouched() (_ []FileTouched, count int) {
	var out []FileTouched
	at := map[string]int{}
	for _, ct := range b.touched {
		c := ct.call
		if c.is(callApproval) || (c.is(callJudged) && !c.is(callSuccess)) {
			continue
		}
		for _, t := range ct.touches {
			p := redactText(t.Path)
			i, ok := at[p]
			if !ok {
				i = -1
				if len(out) < MaxFilesTouched {
					out = append(out, FileTouched{Path: p, Line: c.line})
					i = len(out) - 1
				}
				at[p] = i
			}
			if i < 0 {
				continue
			}
			f := &out[i]
			f.Action = string(t.Action)
			f.Calls++
			if t.Counted {
				f.Added, f.Removed = addCount(f.Added, t.Added), addCount(f.Removed, t.Removed)
			}
		}
	}
	return out, len(at)
}

func addCount(p *int, n int) *int {
	if p != nil {
		n += *p
	}
	return &n
}
