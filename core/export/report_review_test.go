package export

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

var reportNow = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

// run is a session of work item wi for the report tests: its outcome,
// cost (nil: unknown) and flags, each flag with a note of its own.
func run(wi string, o summary.Outcome, usd *float64, flags ...summary.Flag) review.Session {
	it, ms := 1, int64(60_000)
	start := reportNow.Add(-time.Hour)
	s := review.Session{Summary: summary.Summary{WorkItemID: wi, FileName: "work-1-aaaaaa.jsonl", Phase: "work", Iteration: &it,
		AgentKind: "claude", Outcome: o, EstimatedUSD: usd, TotalDurationMs: &ms, StartedAt: &start, Flags: flags,
		Flagged: len(flags) > 0}}
	for _, f := range flags {
		s.FlagNotes = append(s.FlagNotes, summary.FlagNote{Flag: f, Evidence: summary.Evidence{Sentence: string(f) + " happened", Line: 4}})
	}
	return s
}

func usd(v float64) *float64 { return &v }

func reviewOrder(r *Report) []string {
	var out []string
	for _, e := range r.ToReview {
		for _, run := range e.Runs {
			out = append(out, strings.TrimSuffix(run.Session, "/work-1-aaaaaa.jsonl"))
		}
	}
	return out
}

// TestReportToReviewWorstFirst: the runs left to review are the undecided
// failed, died, interrupted and flagged ones, failed before died before
// interrupted before flagged whatever their cost; within the flagged, the
// one with more flags first, then the costlier, an unknown cost never
// below a known one. Decided and unflagged completed runs are not listed.
func TestReportToReviewWorstFirst(t *testing.T) {
	t.Parallel()
	decided := run("decided-failed", summary.OutcomeFailed, usd(5), summary.FlagRunFailed)
	decided.State = review.Reviewed
	ss := []review.Session{
		run("flag-cheap", summary.OutcomeCompleted, usd(0.01), summary.FlagApproval),
		run("flag-dear", summary.OutcomeCompleted, usd(2), summary.FlagStall),
		run("flag-unknown", summary.OutcomeCompleted, nil, summary.FlagToolFailed),
		run("flag-two", summary.OutcomeCompleted, usd(0.001), summary.FlagToolFailed, summary.FlagStall),
		run("interrupted", summary.OutcomeInterrupted, usd(3)),
		run("died", summary.OutcomeDiedBeforeStart, nil, summary.FlagRunFailed),
		run("failed", summary.OutcomeFailed, usd(0.02), summary.FlagRunFailed),
		run("clean", summary.OutcomeCompleted, usd(9)),
		decided,
	}
	r := BuildReport(ReportInput{Now: reportNow, Since: reportNow.Add(-24 * time.Hour), Sessions: ss})
	want := []string{"failed", "died", "interrupted", "flag-two", "flag-unknown", "flag-dear", "flag-cheap"}
	if got := reviewOrder(r); !slices.Equal(got, want) {
		t.Errorf("to review %v, want %v", got, want)
	}
	if r.Totals.ToReview != 7 || r.Totals.Runs != 9 || r.Totals.Failed != 3 || r.Totals.Interrupted != 1 {
		t.Errorf("totals %+v, want 9 runs, 3 failed, 1 interrupted, 7 to review", r.Totals)
	}
	if r.Totals.CostUSD == nil || *r.Totals.CostUSD != 0.01+2+0.001+3+0.02+9+5 || r.Totals.UnknownCost != 2 {
		t.Errorf("spent %v with %d unknown", r.Totals.CostUSD, r.Totals.UnknownCost)
	}
}

// TestReportGroupsIdenticalRuns: eight runs of one agent with the same
// outcome and findings are one entry naming five of them and how many
// more, with one sentence; the cap leaves out entries past capToReview
// and counts their runs.
func TestReportGroupsIdenticalRuns(t *testing.T) {
	t.Parallel()
	var ss []review.Session
	for i := range 8 {
		ss = append(ss, run(fmt.Sprintf("same-%d", i), summary.OutcomeCompleted, usd(0.5), summary.FlagApproval))
	}
	for i := range capToReview + 4 {
		// One entry each: an agent of its own.
		ss = append(ss, run(fmt.Sprintf("own-%02d", i), summary.OutcomeCompleted, usd(0.1), summary.FlagApproval, summary.FlagStall))
		ss[len(ss)-1].AgentKind = fmt.Sprintf("agent-%02d", i)
	}
	r := BuildReport(ReportInput{Now: reportNow, Since: reportNow.Add(-24 * time.Hour), Sessions: ss})
	if len(r.ToReview) != capToReview || r.Totals.ToReview != len(ss) {
		t.Fatalf("%d entries of %d runs, want %d of %d", len(r.ToReview), r.Totals.ToReview, capToReview, len(ss))
	}
	// The runs with two flags come first; the group of one-flag runs is
	// past the cap, and counted.
	if r.MoreToReview != 4+8 {
		t.Errorf("more to review %d, want 12", r.MoreToReview)
	}
	ss = ss[:8]
	r = BuildReport(ReportInput{Now: reportNow, Since: reportNow.Add(-24 * time.Hour), Sessions: ss})
	if len(r.ToReview) != 1 {
		t.Fatalf("%d entries, want one for the eight identical runs", len(r.ToReview))
	}
	e := r.ToReview[0]
	if len(e.Runs) != capGroupRuns || e.MoreRuns != 8-capGroupRuns || e.CostUSD == nil || *e.CostUSD != 4 {
		t.Errorf("entry names %d runs and %d more, cost %v; want %d, %d more, $4", len(e.Runs), e.MoreRuns, e.CostUSD, capGroupRuns, 8-capGroupRuns)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(md.String(), "approval_required happened"); n != 1 {
		t.Errorf("the sentence is written %d times, want once:\n%s", n, md.String())
	}
	if !strings.Contains(md.String(), "- **completed**, 8 claude runs: same-0 · work-1 `same-0/work-1-aaaaaa.jsonl`; same-1") ||
		!strings.Contains(md.String(), fmt.Sprintf("and %d more; 8m0s, $4.00", 8-capGroupRuns)) {
		t.Errorf("the entry does not name its runs and count:\n%s", md.String())
	}
}

// TestReportGroupsRunsWithTheSameFlags: runs of one agent with the same
// outcome and flags whose sentences differ (a command, a path) are one
// entry, in the first run's words, saying so; another agent's, another
// outcome's or other flags are entries of their own.
func TestReportGroupsRunsWithTheSameFlags(t *testing.T) {
	t.Parallel()
	var ss []review.Session
	for i := range 3 {
		s := run(fmt.Sprintf("denied-%d", i), summary.OutcomeCompleted, usd(1-0.1*float64(i)), summary.FlagApproval)
		s.FlagNotes[0].Sentence = fmt.Sprintf("Bash denied: rm file-%d", i)
		ss = append(ss, s)
	}
	other := run("codex-denied", summary.OutcomeCompleted, usd(0.5), summary.FlagApproval)
	other.AgentKind = "codex"
	ss = append(ss, other, run("failed-denied", summary.OutcomeFailed, usd(0.5), summary.FlagApproval),
		run("stalled", summary.OutcomeCompleted, usd(0.5), summary.FlagApproval, summary.FlagStall))
	r := BuildReport(ReportInput{Now: reportNow, Since: reportNow.Add(-24 * time.Hour), Sessions: ss})
	if len(r.ToReview) != 4 {
		t.Fatalf("%d entries, want 4: %+v", len(r.ToReview), r.ToReview)
	}
	var e *ReviewEntry
	for i := range r.ToReview {
		if len(r.ToReview[i].Runs) == 3 {
			e = &r.ToReview[i]
		}
	}
	if e == nil || !e.Varied || e.Findings[0].Sentence != "Bash denied: rm file-0" || e.Runs[0].Session != "denied-0/work-1-aaaaaa.jsonl" {
		t.Fatalf("no entry of the three claude runs in the first's words: %+v", r.ToReview)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "  - approval_required: Bash denied: rm file-0 (line 4)\n  - "+variedWords+"\n") {
		t.Errorf("the entry does not say its words are the first run's:\n%s", md.String())
	}
	checkInertMarkdown(t, r)
}

// TestReportFlagSentenceIsNotItsOwnEvidence: a flag with three notes is
// its first note's sentence with its line, and the other two as evidence;
// the sentence is not written again as a line of evidence.
func TestReportFlagSentenceIsNotItsOwnEvidence(t *testing.T) {
	t.Parallel()
	s := &summary.Summary{Flags: []summary.Flag{summary.FlagApproval}, FlagNotes: []summary.FlagNote{
		{Flag: summary.FlagApproval, Evidence: summary.Evidence{Sentence: "Bash denied: rm", Line: 9}},
		{Flag: summary.FlagApproval, Evidence: summary.Evidence{Sentence: "Bash denied: mv", Line: 12}},
		{Flag: summary.FlagApproval, Evidence: summary.Evidence{Sentence: "Write denied", Line: 20}},
	}}
	fs := FlagFindings(s)
	if len(fs) != 1 {
		t.Fatalf("findings %+v", fs)
	}
	f := fs[0]
	if f.Sentence != "Bash denied: rm" || f.Line != 9 || !slices.Equal(f.Evidence, []string{"line 12: Bash denied: mv", "line 20: Write denied"}) {
		t.Errorf("finding %+v", f)
	}
}

// TestReportHarnessErrorThatFailedTheRunIsOneLine: the harness error and
// the failed run it caused, on the same line with the same words, are one
// finding naming both flags.
func TestReportHarnessErrorThatFailedTheRunIsOneLine(t *testing.T) {
	t.Parallel()
	s := run("wi", summary.OutcomeFailed, nil)
	s.Flags, s.Flagged = []summary.Flag{summary.FlagHarnessError, summary.FlagRunFailed}, true
	s.FlagNotes = []summary.FlagNote{
		{Flag: summary.FlagHarnessError, Evidence: summary.Evidence{Sentence: "harness error: Exec ended early", Line: 10}},
		{Flag: summary.FlagRunFailed, Evidence: summary.Evidence{Sentence: "run failed: Exec ended early", Line: 10}},
	}
	r := BuildReport(ReportInput{Now: reportNow, Since: reportNow.Add(-time.Hour), Sessions: []review.Session{s}})
	fs := r.ToReview[0].Findings
	if len(fs) != 1 || fs[0].Flag != summary.FlagHarnessError || !slices.Equal(fs[0].Also, []summary.Flag{summary.FlagRunFailed}) {
		t.Errorf("findings %+v, want one naming harness_error and run_failed", fs)
	}
}

// TestReportUnknownNumbersAreNotZero: a run without a known cost or
// duration shows a dash or the word unknown in every place it counts,
// never $0.0000 or 0s.
func TestReportUnknownNumbersAreNotZero(t *testing.T) {
	t.Parallel()
	s := run("wi", summary.OutcomeFailed, nil, summary.FlagRunFailed)
	s.TotalDurationMs = nil
	r := BuildReport(ReportInput{Now: reportNow, Since: reportNow.Add(-time.Hour), Sessions: []review.Session{s}})
	var md, page, js bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"md": md.String(), "html": page.String()} {
		for _, zero := range []string{"$0", " 0s", "0ms"} {
			if strings.Contains(out, zero) {
				t.Errorf("%s: an unknown number is printed as %q:\n%s", name, zero, out)
			}
		}
	}
	for _, want := range []string{"spend unknown", "—, cost unknown", "| wi | 1 | — | — |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("md: no %q:\n%s", want, md.String())
		}
	}
	if !strings.Contains(js.String(), `"costUsd": null`) || !strings.Contains(js.String(), `"durationMs": null`) {
		t.Errorf("json: unknown numbers are not null:\n%s", js.String())
	}
}

// TestReportMarkdownReadsRaw: the words a report is made of, and stream
// text without anything Markdown acts on, are written as they are: no
// backslash escapes and no entities, so the page reads the same pasted
// as text into a chat as rendered.
func TestReportMarkdownReadsRaw(t *testing.T) {
	t.Parallel()
	s := run("ENG-1", summary.OutcomeDiedBeforeStart, nil, summary.FlagApproval)
	s.FlagNotes[0].Sentence = "Bash denied: Command contains output redirection (>) which could write_file {x} ! a|b"
	r := BuildReport(ReportInput{Now: reportNow, Since: reportNow.Add(-time.Hour), Sessions: []review.Session{s}})
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	// The outcome is the word every view says (summary.Outcome.Word).
	for _, want := range []string{"**died**", "approval_required: " + s.FlagNotes[0].Sentence + " (line 4)", "| died | 1 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, `\`) || strings.Contains(out, "&gt;") || strings.Contains(out, "&amp;") {
		t.Errorf("the Markdown escapes:\n%s", out)
	}
	checkInertMarkdown(t, r)
}
