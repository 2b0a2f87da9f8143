package ingest

import (
	"time"

	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/summary"
)

// Session is one stream file read: what the store writes of it.
type Session struct {
	File    File
	Summary *summary.Summary
	// Events are the review events, made as they are encoded; nil when
	// none were built (the session is past its review-events tier).
	Events *summary.ReviewEvents
	// Usage is the model calls of an agent's history file; nil for other
	// streams.
	Usage *Usage
	// NoRun is set when no recorded invocation (sift run) matches the
	// file: its cost row can then only be one an import of it wrote.
	NoRun bool
	// Search is the text of the stream the search index needs besides
	// the summary (prompts, harness errors), not redacted yet.
	Search []search.Piece
}

// Activity is the session's last activity in unix ms: its end, else its
// start, else the file's last write. Retention ages review data by it.
func (s *Session) Activity() int64 { return activity(s.Summary, s.File.MTime) }

func activity(sum *summary.Summary, mtime int64) int64 {
	if t := sum.EndedAt; t != nil && !t.IsZero() {
		return t.UnixMilli()
	}
	if t := sum.StartedAt; t != nil && !t.IsZero() {
		return t.UnixMilli()
	}
	return mtime
}

// FileStat is a file's size and mtime (unix ms) as last imported.
type FileStat struct {
	Size, MTime int64
	// Name and SessionID are the file name the file's session is stored
	// under and the session id it recorded: a history session keeps the
	// key it has (historySessionName).
	Name, SessionID string
}

// State is what the store knows that decides which files an import
// reads.
type State struct {
	// Indexed is the ingest index: a file unchanged since it was read
	// last is skipped.
	Indexed map[string]FileStat
	// Running holds the work items with a run under way: their files
	// are read when the work item completes.
	Running map[string]bool
	// Purged holds the files of purged sessions, never read again.
	Purged map[string]bool
	// Pinned holds the files of sessions with an open follow-up: their
	// review events are built whatever their age (Options.KeepEvents).
	Pinned map[string]bool
}

// Invocation is a run `sift run` recorded, as an import matches it to the
// file it wrote.
type Invocation struct {
	Phase string
	// Iteration is nil when none was recorded.
	Iteration *int
	Agent     string
	// File is the file name the run recorded; empty when none yet.
	File string
	// Start and End are the run's window; zero when unknown.
	Start, End time.Time
	// ExitCode is nil while the run is under way or when unknown.
	ExitCode *int
	// Model and ModelSource are the model the run asked for and where
	// `sift run` read it at start; empty when unknown. The summary
	// reports and prices it when the stream names no model.
	Model, ModelSource string
}

// Invocations holds the recorded runs by work item, oldest first.
type Invocations map[string][]Invocation

// Match returns the run that wrote a file: the newest naming it, else the
// newest of the same phase (or canonical phase) and iteration; nil when
// none did.
func (is Invocations) Match(l Layout) *Invocation {
	rows := is[l.WorkItemID]
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].File == l.FileName {
			return &rows[i]
		}
	}
	for i := len(rows) - 1; i >= 0; i-- {
		r := &rows[i]
		if r.Phase != l.Phase && r.Phase != CanonicalPhase(l.Phase) {
			continue
		}
		if (l.Iteration == nil) != (r.Iteration == nil) || (l.Iteration != nil && *l.Iteration != *r.Iteration) {
			continue
		}
		return r
	}
	return nil
}
