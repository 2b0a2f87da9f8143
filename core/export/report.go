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
// turns and review state), the decisions recorded since the window began
// (undos among them), and the open follow-ups whatever their age.
type ReportInput struct {
	Now, Since time.Time
	Sessions   []review.Session
	Decisions  []review.Decision
	Followups  []ReportFollowup
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

// The report's caps: it is one page whatever the night held. Each capped
// list says how many it leaves out.
const (
	capSpend     = 10 // rows of each cost table
	capToReview  = 15 // entries of the to-review list
	capGroupRuns = 3  // runs named in one entry of several
	capStalls    = 10
	capFollowups = 10
	capDecisions = 20
)

// Report is the morning in one page. Its JSON form is `sift report
// --format json`; the Markdown and HTML forms print the same fields. Every
// text that came from a stream or a reviewer is redacted. A More field
// counts what its capped list leaves out.
type Report struct {
	GeneratedAt time.Time      `json:"generatedAt"`
	Since       time.Time      `json:"since"`
	Totals      Totals         `json:"totals"`
	Outcomes    []OutcomeCount `json:"outcomes"`
	ByAgent     []Spend        `json:"byAgent"`
	MoreAgents  int            `json:"moreAgents"`
	ByWorkItem  []Spend        `json:"byWorkItem"`
	MoreItems   int            `json:"moreWorkItems"`
	// ToReview are the runs left to review (Totals.ToReview counts them),
	// worst first; the runs of one agent with the same outcome and flags
	// are one entry. MoreToReview counts the runs of the entries left out.
	ToReview      []ReviewEntry `json:"toReview"`
	MoreToReview  int           `json:"moreToReview"`
	Stalls        []StallRow    `json:"stalls"`
	MoreStalls    int           `json:"moreStalls"`
	Followups     []Followup    `json:"followups"`
	MoreFollowups int           `json:"moreFollowups"`
	Decisions     []DecisionRow `json:"decisions"`
	MoreDecisions int           `json:"moreDecisions"`
}

// Totals is the report's top line.
type Totals struct {
	Runs int `json:"runs"`
	// Failed counts the runs that failed or died before their start;
	// Interrupted those ended by a signal or cut off in a tool call.
	Failed      int `json:"failed"`
	Interrupted int `json:"interrupted"`
	// ToReview counts the failed, interrupted and flagged runs nobody has
	// decided on.
	ToReview int `json:"toReview"`
	// CostUSD adds the costs known, nil when no run's is; UnknownCost
	// counts the runs without one.
	CostUSD       *float64 `json:"costUsd"`
	UnknownCost   int      `json:"unknownCost"`
	FollowupsOpen int      `json:"followupsOpen"`
}

// OutcomeCount is how many runs ended one way.
type OutcomeCount struct {
	Outcome string `json:"outcome"`
	Runs    int    `json:"runs"`
}

// Spend is the cost and time of the runs of one agent or work item.
// CostUSD adds the costs known and DurationMs the durations known, each
// nil when none is; UnknownCost counts runs without a cost.
type Spend struct {
	Key         string   `json:"key"`
	Runs        int      `json:"runs"`
	DurationMs  *int64   `json:"durationMs"`
	CostUSD     *float64 `json:"costUsd"`
	UnknownCost int      `json:"unknownCost"`
}

// RunRef names one run: its key, its label as the inbox shows it, its
// agent, and Anchor, the id of its place in the HTML page (hex digits
// only, whatever the key holds).
type RunRef struct {
	Session string `json:"session"`
	Label   string `json:"label"`
	Agent   string `json:"agent"`
	Anchor  string `json:"anchor"`
}

// ReviewEntry is a run left to review with what sift found, or several
// runs of one agent with the same outcome and flags (Runs, MoreRuns
// beyond the ones named), the worst first. Findings are the first run's;
// Varied says the others' words differ (a command, a path), else they
// say the same. DurationMs and CostUSD add the entry's runs' known
// figures, nil when none is known; UnknownCost counts its runs without a
// cost.
type ReviewEntry struct {
	Outcome     string        `json:"outcome"`
	Agent       string        `json:"agent"`
	Runs        []RunRef      `json:"runs"`
	MoreRuns    int           `json:"moreRuns"`
	DurationMs  *int64        `json:"durationMs"`
	CostUSD     *float64      `json:"costUsd"`
	UnknownCost int           `json:"unknownCost"`
	Findings    []FlagFinding `json:"findings"`
	Varied      bool          `json:"varied"`
}

// FlagFinding is one flag of a session as a sentence, the stream line it
// rests on (0: none), and other stream lines that show the flag: never
// the sentence again. Also are the run's other flags that say the same
// on the same line (a harness error that failed the run), told once.
type FlagFinding struct {
	Flag     summary.Flag   `json:"flag"`
	Also     []summary.Flag `json:"also,omitempty"`
	Sentence string         `json:"sentence"`
	Line     int            `json:"line,omitempty"`
	Evidence []string       `json:"evidence"`
}

// StallRow is one stall of a session in the window.
type StallRow struct {
	RunRef
	GapMs  int64  `json:"gapMs"`
	Kind   string `json:"kind"`
	TurnID string `json:"turnId"`
	Line   int    `json:"line"`
}

// Followup is an open needs_followup decision with the command that
// resumes the agent's session (ReportFollowup.Resume), else why there is
// none.
type Followup struct {
	RunRef
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

// DecisionRow is a decision recorded in the window: who decided what on
// which run, and their note.
type DecisionRow struct {
	RunRef
	Target   string    `json:"target"`
	Decision string    `json:"decision"`
	Reviewer string    `json:"reviewer,omitempty"`
	Note     string    `json:"note,omitempty"`
	At       time.Time `json:"at"`
}

// BuildReport makes the report of in.
func BuildReport(in ReportInput) *Report {
	r := &Report{GeneratedAt: in.Now.UTC(), Since: in.Since.UTC(), Outcomes: []OutcomeCount{}, ToReview: []ReviewEntry{},
		Stalls: []StallRow{}, Followups: []Followup{}, Decisions: []DecisionRow{}}
	r.Totals.Runs = len(in.Sessions)
	outcomes := map[string]int{}
	agents, items := map[string]*Spend{}, map[string]*Spend{}
	refs := make(map[review.SessionKey]RunRef, len(in.Sessions))
	var total Spend
	for i := range in.Sessions {
		s := &in.Sessions[i]
		refs[s.Key().Shown()] = runRef(s)
		o := summary.Outcome(Outcome(&s.Summary))
		outcomes[string(o)]++
		switch {
		case o.IsFailure():
			r.Totals.Failed++
		case o == summary.OutcomeInterrupted:
			r.Totals.Interrupted++
		}
		spend(&total, &s.Summary)
		spend(row(agents, s.AgentKind), &s.Summary)
		spend(row(items, s.Key().Shown().WorkItemID), &s.Summary)
		for _, st := range s.Stalls {
			if st.Flagged {
				r.Stalls = append(r.Stalls, StallRow{RunRef: refs[s.Key().Shown()], GapMs: st.GapMs, Kind: string(st.Kind), TurnID: st.TurnID, Line: st.Line})
			}
		}
	}
	r.Totals.CostUSD, r.Totals.UnknownCost = total.CostUSD, total.UnknownCost
	for o, n := range outcomes {
		r.Outcomes = append(r.Outcomes, OutcomeCount{Outcome: o, Runs: n})
	}
	slices.SortFunc(r.Outcomes, func(a, b OutcomeCount) int {
		return cmp.Or(summary.Outcome(b.Outcome).Rank()-summary.Outcome(a.Outcome).Rank(), cmp.Compare(a.Outcome, b.Outcome))
	})
	r.ByAgent, r.MoreAgents = capped(spends(agents), capSpend)
	r.ByWorkItem, r.MoreItems = capped(spends(items), capSpend)
	r.Totals.ToReview, r.ToReview, r.MoreToReview = toReview(in.Sessions)
	slices.SortStableFunc(r.Stalls, func(a, b StallRow) int { return cmp.Compare(b.GapMs, a.GapMs) })
	r.Stalls, r.MoreStalls = capped(r.Stalls, capStalls)
	r.Decisions, r.MoreDecisions = decisions(in.Decisions, refs)
	r.Followups = followups(in.Followups)
	r.Totals.FollowupsOpen = len(r.Followups)
	r.Followups, r.MoreFollowups = capped(r.Followups, capFollowups)
	return r
}

// capped is the first n of rows and how many it leaves out.
func capped[T any](rows []T, n int) ([]T, int) {
	if len(rows) <= n {
		return rows, 0
	}
	return rows[:n], len(rows) - n
}

// runRef names a session of the window.
func runRef(s *review.Session) RunRef {
	return RunRef{Session: s.Key().String(), Label: review.Label(s.WorkItemID, s.Phase, s.Iteration),
		Agent: s.AgentKind, Anchor: anchor(s.Key())}
}

// refOf names a session by its key: as refs (keyed by the keys as shown)
// names it, else from the key alone (a session not in the window, or gone
// from the store).
func refOf(k review.SessionKey, refs map[review.SessionKey]RunRef) RunRef {
	shown := k.Shown()
	if r, ok := refs[shown]; ok {
		return r
	}
	return RunRef{Session: shown.Ref(), Label: shown.WorkItemID + " · " + shown.FileName, Anchor: anchor(k)}
}

func row(m map[string]*Spend, key string) *Spend {
	r := m[key]
	if r == nil {
		r = &Spend{Key: key}
		m[key] = r
	}
	return r
}

// spend adds a session's cost and time to a row: a negative one adds
// nothing, and a sum stops at the largest number it holds.
func spend(row *Spend, s *summary.Summary) {
	row.Runs++
	addFigures(&row.DurationMs, &row.CostUSD, &row.UnknownCost, s)
}

// addFigures adds a run's known duration and cost to the sums, and
// counts it in unknown when its cost is not known.
func addFigures(ms **int64, usd **float64, unknown *int, s *summary.Summary) {
	if d := s.TotalDurationMs; d != nil {
		v := event.AddCount(0, *d)
		if *ms != nil {
			v = event.AddCount(**ms, *d)
		}
		*ms = &v
	}
	if c := s.EstimatedUSD; c != nil {
		v := event.AddUSD(0, *c)
		if *usd != nil {
			v = event.AddUSD(**usd, *c)
		}
		*usd = &v
	} else {
		*unknown++
	}
}

// spends are the rows of m, the costliest first (by the costs known, then
// by how many are not), then the longest.
func spends(m map[string]*Spend) []Spend {
	out := make([]Spend, 0, len(m))
	for _, s := range m {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b Spend) int {
		return cmp.Or(cmpPtr(b.CostUSD, a.CostUSD), b.UnknownCost-a.UnknownCost, cmpPtr(b.DurationMs, a.DurationMs),
			cmp.Compare(a.Key, b.Key))
	})
	return out
}

// cmpCost orders two costs, the higher first: a cost with unknown parts
// counts as unbounded, so it never ranks below a known one.
func cmpCost(a *float64, aUnknown int, b *float64, bUnknown int) int {
	if ua, ub := aUnknown > 0, bUnknown > 0; ua != ub {
		if ua {
			return -1
		}
		return 1
	}
	return cmpPtr(b, a)
}

// cmpPtr compares two figures, nil below any.
func cmpPtr[T cmp.Ordered](a, b *T) int { return cmpOpt(a, b, cmp.Compare[T]) }

// cmpOpt compares two values that may be unknown with c, nil below any.
func cmpOpt[T any](a, b *T, c func(T, T) int) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return c(*a, *b)
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

// decisions are the decisions of the window, the latest capDecisions of
// them, oldest first.
func decisions(ds []review.Decision, refs map[review.SessionKey]RunRef) ([]DecisionRow, int) {
	out := make([]DecisionRow, 0, len(ds))
	for _, d := range ds {
		out = append(out, DecisionRow{RunRef: refOf(d.Session, refs), Target: target(d), Decision: string(d.Kind),
			Reviewer: redact.String(d.Reviewer), Note: redact.String(d.Note), At: d.CreatedAt.UTC()})
	}
	slices.SortStableFunc(out, func(a, b DecisionRow) int { return a.At.Compare(b.At) })
	if more := len(out) - capDecisions; more > 0 {
		return out[more:], more
	}
	return out, 0
}

// followups are the open follow-ups, the oldest first.
func followups(fs []ReportFollowup) []Followup {
	out := make([]Followup, 0, len(fs))
	for _, f := range fs {
		d := &f.Decision
		r := f.Resume
		ref := refOf(d.Session, nil)
		if !f.Session.Key().IsZero() {
			ref = runRef(&f.Session)
		}
		out = append(out, Followup{RunRef: ref, Target: target(*d), Note: redact.String(d.Note),
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
