package export

import (
	"time"

	"github.com/agentsift/sift/core/review"
)

// FollowupItem is one open follow-up as `sift followups --json` and the
// API's /api/followups write it: its session, note, failing call and the
// command that resumes its agent's session. The command is the program's
// (core/capture.ResumeCommand, handed in): every surface shows the same.
type FollowupItem struct {
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
	FailingCall *FailingCall `json:"failingCall"`
	// Resume resumes the agent's session, null when there is no command;
	// ResumeUnavailable then says why.
	Resume            *ResumeCommand `json:"resume"`
	ResumeUnavailable string         `json:"resumeUnavailable,omitempty"`
}

// FailingCall names a follow-up's failing call: Why is the line of its
// output that explains the failure.
type FailingCall struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	TurnID       string  `json:"turnId,omitempty"`
	InputSummary string  `json:"inputSummary,omitempty"`
	ExitCode     *int    `json:"exitCode"`
	Error        *string `json:"error"`
	Why          string  `json:"why,omitempty"`
}

// ResumeCommand is a resume as one POSIX shell line and its arguments:
// interactive (Command, Argv), and the form that sends the note as the
// prompt (WithNote), with the folder it runs in and where sift has it
// from ("sift run" or "the stream"), or why that is unknown.
type ResumeCommand struct {
	Command    string       `json:"command"`
	Argv       []string     `json:"argv"`
	Dir        string       `json:"dir,omitempty"`
	DirFrom    string       `json:"dirFrom,omitempty"`
	DirUnknown string       `json:"dirUnknown,omitempty"`
	WithNote   *NoteCommand `json:"withNote,omitempty"`
}

// NoteCommand is the resume that sends the note to the agent as the
// prompt: Label says so wherever it is shown.
type NoteCommand struct {
	Command string   `json:"command"`
	Argv    []string `json:"argv"`
	Label   string   `json:"label"`
}

// FollowupOf lays out one follow-up with its resume command r.
func FollowupOf(f *review.Followup, r review.Resume) FollowupItem {
	d, s := &f.Decision, &f.Session
	k := d.Session.Shown()
	out := FollowupItem{WorkItemID: k.WorkItemID, FileName: k.FileName, AgentKind: s.AgentKind,
		SessionID: s.SessionID, TurnID: d.TurnID, ToolCallID: d.ToolCallID, Note: d.Note, ReviewerID: d.Reviewer,
		CreatedAt: d.CreatedAt}
	if c := f.Call; c != nil {
		out.FailingCall = &FailingCall{ID: c.ID, Name: c.Name, TurnID: c.TurnID, InputSummary: c.InputSummary,
			ExitCode: c.ExitCode, Error: c.Error, Why: c.Why}
	}
	if r.Why != "" {
		out.ResumeUnavailable = r.Why
		return out
	}
	out.Resume = &ResumeCommand{Command: r.Shell(), Argv: r.Argv, Dir: r.Dir, DirFrom: r.DirFrom, DirUnknown: r.DirWhy}
	if len(r.NoteArgv) > 0 {
		out.Resume.WithNote = &NoteCommand{Command: r.NoteShell(), Argv: r.NoteArgv, Label: review.NoteLabel}
	}
	return out
}
