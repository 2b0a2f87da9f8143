package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/textsafe"
)

// followupsUsage is the usage line of `sift followups`.
const followupsUsage = "followups [--json]   the open needs_followup decisions, each with its note, failing call and a command to resume the agent's session"

// followupJSON is one open follow-up as `sift followups --json` writes it.
type followupJSON struct {
	WorkItemID string    `json:"workItemId"`
	FileName   string    `json:"fileName"`
	AgentKind  string    `json:"agentKind"`
	SessionID  string    `json:"sessionId,omitempty"`
	TurnID     string    `json:"turnId,omitempty"`
	ToolCallID string    `json:"toolCallId,omitempty"`
	Note       string    `json:"note"`
	ReviewerID string    `json:"reviewerId,omitempty"`
	CreatedAt  time.Time `json:"createdAt"`
	// FailingCall is the call that failed (review.FailingCall), null
	// when none did.
	FailingCall *failingCallJSON `json:"failingCall"`
	// Resume is the command that resumes the agent's session with the
	// note as the prompt, null when there is none; ResumeUnavailable then
	// says why.
	Resume            *resumeJSON `json:"resume"`
	ResumeUnavailable string      `json:"resumeUnavailable,omitempty"`
}

// failingCallJSON names a follow-up's failing call.
type failingCallJSON struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	TurnID       string  `json:"turnId,omitempty"`
	InputSummary string  `json:"inputSummary,omitempty"`
	ExitCode     *int    `json:"exitCode"`
	Error        *string `json:"error"`
}

// resumeJSON is a resume command: one POSIX shell line, its arguments,
// and the folder it runs in ("" when unknown).
type resumeJSON struct {
	Command string   `json:"command"`
	Argv    []string `json:"argv"`
	Dir     string   `json:"dir,omitempty"`
}

// toFollowupJSON lays out one follow-up with its resume command.
func toFollowupJSON(f *review.Followup) followupJSON {
	d, s := &f.Decision, &f.Session
	k := d.Session.Shown()
	out := followupJSON{WorkItemID: k.WorkItemID, FileName: k.FileName, AgentKind: s.AgentKind,
		SessionID: s.SessionID, TurnID: d.TurnID, ToolCallID: d.ToolCallID, Note: d.Note, ReviewerID: d.Reviewer,
		CreatedAt: d.CreatedAt}
	if c := f.Call; c != nil {
		out.FailingCall = &failingCallJSON{ID: c.ID, Name: c.Name, TurnID: c.TurnID, InputSummary: c.InputSummary,
			ExitCode: c.ExitCode, Error: c.Error}
	}
	r := resumeOf(f)
	if r.Why != "" {
		out.ResumeUnavailable = r.Why
	} else {
		out.Resume = &resumeJSON{Command: r.Shell(), Argv: r.Argv, Dir: r.Dir}
	}
	return out
}

// resumeLine is resumeOf as the inbox takes it: the shell line, or why
// there is none.
func resumeLine(f *review.Followup) (line, why string) {
	r := resumeOf(f)
	return r.Shell(), r.Why
}

// resumeOf is how to resume a follow-up's agent session with its note as
// the prompt: the one command sift followups and sift report give.
func resumeOf(f *review.Followup) capture.Resume {
	return capture.ResumeCommand(agents.Kind(f.Session.AgentKind), f.Session.SessionID, f.Session.Cwd, f.Decision.Note)
}

// runFollowups implements `sift followups [--json]`.
func runFollowups(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("followups", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "followups", err)
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "followups", err)
	}
	defer st.Close()
	fus, err := st.Followups(context.Background())
	if err != nil {
		return fail(stderr, "followups", err)
	}
	out := make([]followupJSON, len(fus))
	for i := range fus {
		out[i] = toFollowupJSON(&fus[i])
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if *asJSON {
		enc := textsafe.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return fail(stderr, "followups", err)
		}
		return 0
	}
	writeFollowups(w, out)
	return 0
}

// writeFollowups prints the follow-ups, one block each. Everything from a
// stream or a note is inert; the resume command is quoted for a shell.
func writeFollowups(w io.Writer, fs []followupJSON) {
	if len(fs) == 0 {
		fmt.Fprintln(w, "no open follow-ups")
		return
	}
	for i, f := range fs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		target := f.WorkItemID + "/" + f.FileName
		if f.TurnID != "" {
			target += " turn " + f.TurnID
		}
		if f.ToolCallID != "" {
			target += " tool call " + f.ToolCallID
		}
		fmt.Fprintf(w, "%s (%s)\n", textsafe.Inert(target), textsafe.Inert(f.AgentKind))
		fmt.Fprintf(w, "  note:    %s\n", textsafe.Inert(f.Note))
		fmt.Fprintf(w, "  by:      %s, %s\n", textsafe.Inert(orDash(f.ReviewerID)), f.CreatedAt.Local().Format("2006-01-02 15:04"))
		if c := f.FailingCall; c != nil {
			line := c.Name + " " + c.ID
			if c.Error != nil {
				first, _, _ := strings.Cut(strings.TrimSpace(*c.Error), "\n")
				line += ": " + first
			}
			fmt.Fprintf(w, "  failed:  %s\n", textsafe.Inert(line))
		}
		if f.Resume != nil {
			fmt.Fprintf(w, "  resume:  %s\n", textsafe.Inert(f.Resume.Command))
		} else {
			fmt.Fprintf(w, "  resume:  %s\n", textsafe.Inert(f.ResumeUnavailable))
		}
	}
}
