package app

import (
	"context"
	"io"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/export"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// ResumeOf is the one command that resumes a follow-up's agent session
// (review.Resume), as the inbox, `sift followups`, the report and the
// API show it.
func ResumeOf(f *review.Followup) review.Resume {
	return capture.ResumeCommand(agents.Kind(f.Session.AgentKind), f.Session.SessionID, f.Session.Cwd, f.Session.StreamCwd, f.Decision.Note)
}

// WriteReport reads what the morning report needs from the store and
// writes it as format: md (Markdown), html or json.
func WriteReport(ctx context.Context, st *store.Store, now, since time.Time, format string, w io.Writer) error {
	r, err := BuildReport(ctx, st, now, since)
	if err != nil {
		return err
	}
	switch format {
	case "html":
		return r.WriteHTML(w)
	case "json":
		return r.WriteJSON(w)
	}
	return r.WriteMarkdown(w)
}

// BuildReport reads the sessions active since the start of the window,
// the decisions recorded since then, and the open follow-ups (those sift
// followups lists) with their resume commands.
func BuildReport(ctx context.Context, st *store.Store, now, since time.Time) (*export.Report, error) {
	in := export.ReportInput{Now: now, Since: since}
	page, err := st.ListSessions(ctx, review.Query{Since: since, Full: true})
	if err != nil {
		return nil, err
	}
	in.Sessions = page.Sessions
	err = st.ExportDecisions(ctx, since, func(d store.ExportedDecision) error {
		in.Decisions = append(in.Decisions, review.Decision{
			Session: review.SessionKey{WorkItemID: d.WorkItemID, FileName: d.FileName},
			Kind:    d.Decision, Note: d.Note, Reviewer: d.Reviewer, CreatedAt: d.CreatedAt, TurnID: d.TurnID, ToolCallID: d.ToolCallID,
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	fus, err := st.Followups(ctx)
	if err != nil {
		return nil, err
	}
	for i := range fus {
		in.Followups = append(in.Followups, export.ReportFollowup{Followup: fus[i], Resume: ResumeOf(&fus[i])})
	}
	return export.BuildReport(in), nil
}
