package review

import (
	"io"
	"time"

	"github.com/agentsift/sift/core/summary"
)

// Session is one session as a reviewer sees it: a row of the inbox or of
// `sift list`, or an opened session. Its JSON is the summary JSON with the
// session's latest decision ("decision", null when undecided) and, where
// asked for, the current decisions on its turns and tool calls
// ("decisions").
type Session struct {
	summary.Summary
	// Decision is the latest session-level decision, nil when undecided.
	Decision *Decision `json:"decision"`
	// State is the session's review state (see State): its own
	// decision's kind, else the decisions on its flagged turns rolled up,
	// else "" (undecided, left out of the JSON).
	State DecisionKind `json:"reviewState,omitempty"`
	// Decisions are the current decisions on the session's turns and
	// tool calls (each target's latest), filled where a query asks for
	// them (Query.Full, Query.Decisions).
	Decisions []Decision `json:"decisions,omitempty"`
	// Path is the stream file, for re-parsing the detail: set on an opened
	// session, empty in a list's row or when the store does not know it.
	Path string `json:"-"`
	// Cwd is the working directory `sift run` recorded for the run that
	// wrote the stream; empty when unknown (an imported file, an agent's
	// history). The stream's own cwd is never used: it is untrusted text.
	Cwd string `json:"-"`
	// RunArgs are the agent's arguments as `sift run` passed them,
	// redacted: the prompt is among them when the stream does not carry
	// it. Nil for a run sift did not start.
	RunArgs []string `json:"runArgs,omitempty"`
	// Live says whether the session's stream is still being written:
	// LiveRunning while the `sift run` that writes it is under way,
	// LiveInterrupted once its process was found gone, "" otherwise.
	Live LiveState `json:"live,omitempty"`
	// LiveTool is the tool a running session is in ("" between tools);
	// LiveWait what it waits for (WaitApproval, WaitStall, "").
	LiveTool string   `json:"liveTool,omitempty"`
	LiveWait LiveWait `json:"liveWait,omitempty"`
	// NewSince is, for a session that grew after its decisions, the last
	// line its reviewer had seen: it is undecided again, and its new turns
	// start after that line. 0 otherwise.
	NewSince int `json:"newSince,omitempty"`
	// GitBefore and GitAfter are the commits (HEAD) of the git work tree
	// `sift run` ran the agent in, read before and after the run; empty
	// when unknown (not a work tree, an imported file).
	GitBefore string `json:"-"`
	GitAfter  string `json:"-"`
	// Project is how the inbox names the project of a session from an
	// agent's own history, in place of its work item (a folder slug or a
	// project hash): ProjectLabels of the folder it records, else
	// ShortHash of its work item. "" for any other session, and in every
	// output but the inbox: the key stays the session's name.
	Project string `json:"-"`
	// ActiveAt is, for a session whose stream records no start, its last
	// activity as the store keeps it: the stream's end, else its file's
	// modification time. The started order places the session there,
	// and the inbox and sift list show it, marked, where the start would
	// be. Nil when the stream records its start.
	ActiveAt *time.Time `json:"-"`
	// Claim is the session's live claim: the reviewer reviewing it now
	// (Claim); nil when nobody is, or their claim expired.
	Claim *Claim `json:"claim,omitempty"`
}

// LiveState is whether a session's stream is still being written.
type LiveState string

// The live states of a session.
const (
	// LiveRunning is a session `sift run` is writing now.
	LiveRunning LiveState = "running"
	// LiveInterrupted is a session whose `sift run` process died before
	// its end was recorded.
	LiveInterrupted LiveState = "interrupted"
)

// LiveWait is what a running session waits for.
type LiveWait string

// What a running session may wait for; either moves it to the top of the
// triage order while it waits.
const (
	// WaitApproval is a tool call that needs the user's approval.
	WaitApproval LiveWait = "approval"
	// WaitStall is no line for the stall threshold.
	WaitStall LiveWait = "stall"
)

// Key returns the session's key.
func (s *Session) Key() SessionKey {
	return SessionKey{WorkItemID: s.WorkItemID, FileName: s.FileName}
}

// WriteJSON writes the session's JSON as one line, byte for byte what an
// Encoder of newEncoder writes for it, with its tool calls, stalls and
// turns streamed one at a time (summary.WriteJSONOf).
func (s *Session) WriteJSON(w io.Writer, newEncoder func(io.Writer) summary.Encoder) error {
	return summary.WriteJSONOf(w, &s.Summary, func(brief *summary.Summary) any {
		c := *s
		c.Summary = *brief
		return &c
	}, newEncoder)
}

// Shown returns the session with its key as every output writes it
// (SessionKey.Shown); the rest is shared with s.
func (s *Session) Shown() *Session {
	c := *s
	k := s.Key().Shown()
	c.WorkItemID, c.FileName = k.WorkItemID, k.FileName
	return &c
}
