package export

import (
	"cmp"
	"slices"
	"time"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// ReportInput is what the morning report is made of, as the store answers
// it: the sessions active in the window (with their tool calls, stalls,
// turns and current decisions) and the decision history of each of them,
// and the open follow-ups whatever their age.
type ReportInput struct {
	Now, Since time.Time
	Sessions   []review.Session
	Followups  []ReportFollowup
	History    map[review.SessionKey][]review.Decision
}

// ReportFollowup is an open follow-up as the program hands it to the
// report, with the command that resumes its agent's session. The report
// makes no command of its own: the program makes it with the one checked
// builder that sift followups and the inbox use, so a session id from a
// stream is never printed where a shell would read it as a flag, and
// every surface gives the same command for the same follow-up.
type ReportFollowup struct {
	review.Followup
	Resume review.Resume
}

// Report is the morning in one page. Its JSON form is `sift report
// --format json`; the Markdown and HTML forms print the same fields.
// Every text that came from a stream or a reviewer is redacted.
type Report struct {
	GeneratedAt time.Time      `json:"generatedAt"`
	Since       time.Time      `json:"since"`
	Sessions    int            `json:"sessions"`
	Outcomes    []OutcomeCount `json:"outcomes"`
	ByAgent     []Spend        `json:"byAgent"`
	ByWorkItem  []Spend        `json:"byWorkItem"`
	Flagged     []FlaggedRun   `json:"flagged"`
	Stalls      []StallRow     `json:"stalls"`
	Followups   []Followup     `json:"followups"`
	Decisions   []DecisionRow  `json:"decisions"`
}

// OutcomeCount is how many runs ended one way.
type OutcomeCount struct {
	Outcome string `json:"outcome"`
	Runs    int    `json:"runs"`
}

// Spend is the cost and time of the runs of one agent or work item.
// CostUSD adds the costs known; UnknownCost counts runs without one.
type Spend struct {
	Key         string  `json:"key"`
	Runs        int     `json:"runs"`
	DurationMs  int64   `json:"durationMs"`
	CostUSD     float64 `json:"costUsd"`
	UnknownCost int     `json:"unknownCost"`
}

// FlaggedRun is a flagged session with what sift found.
type FlaggedRun struct {
	Session  string        `json:"session"`
	Label    string        `json:"label"`
	Agent    string        `json:"agent"`
	Outcome  string        `json:"outcome"`
	Findings []FlagFinding `json:"findings"`
}

// FlagFinding is one flag of a session as a sentence, with the stream
// lines that show it.
type FlagFinding struct {
	Flag     summary.Flag `json:"flag"`
	Sentence string       `json:"sentence"`
	Evidence []string     `json:"evidence"`
}

// StallRow is one stall of a session in the window.
type StallRow struct {
	Session string `json:"session"`
	GapMs   int64  `json:"gapMs"`
	Kind    string `json:"kind"`
	TurnID  string `json:"turnId"`
	Line    int    `json:"line"`
}

// Followup is an open needs_followup decision with the command that
// resumes the agent's session (ReportFollowup.Resume), else why there is
// none.
type Followup struct {
	Session  string    `json:"session"`
	Target   string    `json:"target"`
	Note     string    `json:"note,omitempty"`
	Reviewer string    `json:"reviewer,omitempty"`
	Since    time.Time `json:"since"`
	Resume   string    `json:"resume,omitempty"`
	// ResumeWithNote sends the note to the agent as the prompt
	// (review.NoteLabel); ResumeFolder says where the folder is from, or
	// that it is unknown.
	ResumeWithNote    string `json:"resumeWithNote,omitempty"`
	ResumeFolder      string `json:"resumeFolder,omitempty"`
	ResumeUnavailable string `json:"resumeUnavailable,omitempty"`
}

// DecisionRow is a decision recorded in the window.
type DecisionRow struct {
	Session  string    `json:"session"`
	Target   string    `json:"target"`
	Decision string    `json:"decision"`
	Reviewer string    `json:"reviewer,omitempty"`
	Note     string    `json:"note,omitempty"`
	At       time.Time `json:"at"`
}

// BuildReport makes the report of in.
func BuildReport(in ReportInput) *Report {
	r := &Report{GeneratedAt: in.Now.UTC(), Since: in.Since.UTC(), Sessions: len(in.Sessions),
		Outcomes: []OutcomeCount{}, Flagged: []FlaggedRun{}, Stalls: []StallRow{}, Followups: []Followup{}, Decisions: []DecisionRow{}}
	outcomes := map[string]int{}
	agents, items := map[string]*Spend{}, map[string]*Spend{}
	for i := range in.Sessions {
		s := &in.Sessions[i]
		key := s.Key().String()
		outcomes[Outcome(&s.Summary)]++
		spend(agents, s.AgentKind, &s.Summary)
		spend(items, s.Key().Shown().WorkItemID, &s.Summary)
		if s.Flagged {
			r.Flagged = append(r.Flagged, FlaggedRun{Session: key, Label: review.Label(s.WorkItemID, s.Phase, s.Iteration),
				Agent: s.AgentKind, Outcome: Outcome(&s.Summary), Findings: FlagFindings(&s.Summary)})
		}
		for _, st := range s.Stalls {
			r.Stalls = append(r.Stalls, StallRow{Session: key, GapMs: st.GapMs, Kind: string(st.Kind), TurnID: st.TurnID, Line: st.Line})
		}
		for _, d := range in.History[s.Key()] {
			if !d.CreatedAt.Before(in.Since) {
				r.Decisions = append(r.Decisions, DecisionRow{Session: key, Target: target(d), Decision: string(d.Kind),
					Reviewer: redact.String(d.Reviewer), Note: redact.String(d.Note), At: d.CreatedAt.UTC()})
			}
		}
	}
	for o, n := range outcomes {
		r.Outcomes = append(r.Outcomes, OutcomeCount{Outcome: o, Runs: n})
	}
	slices.SortFunc(r.Outcomes, func(a, b OutcomeCount) int { return cmp.Or(b.Runs-a.Runs, cmp.Compare(a.Outcome, b.Outcome)) })
	r.ByAgent, r.ByWorkItem = spends(agents), spends(items)
	slices.SortStableFunc(r.Stalls, func(a, b StallRow) int { return cmp.Compare(b.GapMs, a.GapMs) })
	slices.SortStableFunc(r.Decisions, func(a, b DecisionRow) int { return a.At.Compare(b.At) })
	r.Followups = followups(in.Followups)
	return r
}

// spend adds a session's cost and time to its row of m: a negative one
// adds nothing, and a sum stops at the largest number it holds.
func spend(m map[string]*Spend, key string, s *summary.Summary) {
	row := m[key]
	if row == nil {
		row = &Spend{Key: key}
		m[key] = row
	}
	row.Runs++
	if s.TotalDurationMs != nil {
		row.DurationMs = event.AddCount(row.DurationMs, *s.TotalDurationMs)
	}
	if s.EstimatedUSD != nil {
		row.CostUSD = event.AddUSD(row.CostUSD, *s.EstimatedUSD)
	} else {
		row.UnknownCost++
	}
}

// spends are the rows of m, the costliest first.
func spends(m map[string]*Spend) []Spend {
	out := make([]Spend, 0, len(m))
	for _, s := range m {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b Spend) int {
		return cmp.Or(cmp.Compare(b.CostUSD, a.CostUSD), cmp.Compare(b.DurationMs, a.DurationMs), cmp.Compare(a.Key, b.Key))
	})
	return out
}

// target names what a decision is on.
func target(d review.Decision) string {
	switch {
	case d.ToolCallID != "":
		return "tool call " + d.ToolCallID
	case d.TurnID != "":
		return "turn " + d.TurnID
	}
	return "session"
}

// followups are the open follow-ups, the oldest first.
func followups(fs []ReportFollowup) []Followup {
	out := make([]Followup, 0, len(fs))
	for _, f := range fs {
		d := &f.Decision
		r := f.Resume
		out = append(out, Followup{Session: d.Session.String(), Target: target(*d), Note: redact.String(d.Note),
			Reviewer: redact.String(d.Reviewer), Since: d.CreatedAt.UTC(), Resume: redact.String(r.Shell()),
			ResumeWithNote: redact.String(r.NoteShell()), ResumeFolder: redact.String(folderWords(r)),
			ResumeUnavailable: redact.String(r.Why)})
	}
	slices.SortStableFunc(out, func(a, b Followup) int { return cmp.Or(a.Since.Compare(b.Since), cmp.Compare(a.Session, b.Session)) })
	return out
}

// folderWords says where a resume's folder is from, or that it is
// unknown; "" when sift run recorded it.
func folderWords(r review.Resume) string {
	switch {
	case r.Why != "":
		return ""
	case r.DirWhy != "":
		return r.DirWhy
	case r.DirFrom == review.DirFromStream:
		return "the folder is the one the stream records"
	}
	return ""
}
