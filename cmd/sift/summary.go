package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/pricing"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/textsafe"
)

// runSummary implements `sift summary FILE… [--agent K] [--start T --end T]
// [--by-offset] [--exit-code N] [--model M] [--json] [--pricing FILE]
// [--stall 30s]`.
func runSummary(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("summary", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agent := fs.String("agent", "", "declared agent kind (default: sniff)")
	start := fs.String("start", "", "invocation start, RFC 3339 (projects timestamp-less events)")
	end := fs.String("end", "", "invocation end, RFC 3339")
	asJSON := fs.Bool("json", false, "print one JSON summary per line")
	prices := fs.String("pricing", "", "prices laid over the catalog: the configuration's Prices form, YAML or JSON, or a configuration file")
	stall := fs.Duration("stall", summary.DefaultStallThreshold, "gap that counts as a stall")
	toolStall := fs.Duration("tool-stall", summary.DefaultToolStallThreshold, "wait on a running tool that counts as a stall")
	exit := fs.Int("exit-code", -1, "the agent's exit status, when known")
	byOffset := fs.Bool("by-offset", false, "project timestamp-less events by byte offset, not line")
	model := fs.String("model", "", "the model the run used, when the stream names none (for cost)")
	paths, err := parseArgs(fs, args, -1)
	if err != nil {
		return fail(stderr, "summary", err)
	}
	if len(paths) == 0 {
		return fail(stderr, "summary", fmt.Errorf("want at least one FILE"))
	}
	opt := summary.Options{Agent: *agent, StallThreshold: *stall, ToolStallThreshold: *toolStall, Model: *model, ModelSource: "--model",
		NoReviewEvents: true}
	if *agent != "" {
		if _, err := agents.Default().Lookup(agents.Kind(*agent)); err != nil {
			return fail(stderr, "summary", err)
		}
	}
	if *stall <= 0 {
		return fail(stderr, "summary", fmt.Errorf("--stall must be positive, got %s", *stall))
	}
	if opt.Start, opt.End, err = window(*start, *end); err != nil {
		return fail(stderr, "summary", err)
	}
	if *byOffset {
		opt.Projection = summary.ProjectByOffset
	}
	if *exit >= 0 {
		opt.ExitCode = exit
	}
	if *prices != "" {
		o, err := config.LoadPrices(*prices)
		if err != nil {
			return fail(stderr, "summary", err)
		}
		opt.Prices = pricing.Default().With(o, *prices)
	}
	w := bufio.NewWriterSize(stdout, 64<<10)
	defer w.Flush()
	for i, path := range paths {
		s, _, err := ingest.AnalyzeFile(path, opt)
		if err != nil {
			w.Flush()
			return fail(stderr, "summary", err)
		}
		if *asJSON {
			// Streamed: a summary of many calls is never held as JSON.
			// A file's summary is a session without decisions.
			sess := review.Session{Summary: *s}
			if err := sess.WriteJSON(w, inertEncoder); err != nil {
				return fail(stderr, "summary", err)
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		writeSummary(w, path, s)
	}
	return 0
}

// window parses --start and --end: both or neither, end after start.
func window(start, end string) (time.Time, time.Time, error) {
	if start == "" && end == "" {
		return time.Time{}, time.Time{}, nil
	}
	if start == "" || end == "" {
		return time.Time{}, time.Time{}, fmt.Errorf("--start and --end go together")
	}
	s, err := time.Parse(time.RFC3339Nano, start)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("--start: %w", err)
	}
	e, err := time.Parse(time.RFC3339Nano, end)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("--end: %w", err)
	}
	if !e.After(s) {
		return time.Time{}, time.Time{}, fmt.Errorf("--end %s is not after --start %s", end, start)
	}
	return s, e, nil
}

// writeSummary prints the readable block of one summary. Everything in it
// but the labels comes from the stream or the file system, so every value
// is printed inert.
func writeSummary(w io.Writer, path string, s *summary.Summary) {
	row := func(k, v string) { fmt.Fprintf(w, "  %-13s %s\n", k, textsafe.Inert(v)) }
	fmt.Fprintf(w, "%s\n", textsafe.Inert(path))
	row("agent", s.AgentKind+optional(" · session ", s.SessionID))
	if s.Model != "" {
		row("model", modelLine(s))
	}
	row("outcome", s.Outcome.Word()+optional(": ", s.OutcomeEvidence.String()))
	if len(s.Flags) > 0 {
		row("flags", joinFlags(s.Flags))
	}
	if s.StartedAt != nil {
		row("started", s.StartedAt.Format(time.RFC3339))
	}
	row("duration", fmtMs(s.TotalDurationMs)+" · first token "+fmtMs(s.TimeToFirstTokenMs)+
		" · thinking "+fmtMs(s.ThinkingMs)+" · executing "+fmtMs(s.ExecutingMs))
	row("tokens", "in "+fmtInt(s.InputTokens)+" (cached "+fmtInt(s.CachedInputTokens)+
		", cache write "+fmtInt(s.CacheWriteTokens)+") · out "+fmtInt(s.OutputTokens))
	cost := "unknown"
	if s.EstimatedUSD != nil {
		cost = fmt.Sprintf("$%.4f (%s", *s.EstimatedUSD, s.CostSource)
		if s.CostBasis != "" {
			cost += ": " + s.CostBasis
		}
		cost += ")"
	}
	row("cost", cost)
	if r := s.Reconciliation; r != nil {
		row("usage check", reconciliationText(r))
	}
	row("turns", fmt.Sprintf("%d", len(s.Turns))+optional(" · harness says ", fmtIntp(s.NumTurns))+toolTurnsCost(s.Turns))
	failed := 0
	for _, c := range s.ToolCalls {
		if c.Success != nil && !*c.Success && !c.ApprovalRequired {
			failed++
		}
	}
	row("tool calls", fmt.Sprintf("%d (%d failed, %d approval)", s.ToolCallCount, failed, s.ApprovalCount))
	shown := 0
	for _, c := range s.ToolCalls {
		if c.Success == nil || *c.Success || shown == 5 {
			continue
		}
		shown++
		what := "failed"
		if c.ApprovalRequired {
			what = "approval"
		}
		detail := c.Name + " " + c.InputSummary
		if c.Error != nil {
			detail += " → " + *c.Error
		}
		row(what, oneLine(c.TurnID+" "+detail))
	}
	writeFlagNotes(row, s)
	writeTurns(w, s)
	for _, st := range s.Stalls {
		what := fmt.Sprintf("%s %s at line %d (%s)", fmtMs(&st.GapMs), st.Kind, st.Line, st.TurnID)
		if !st.Flagged {
			what += " · tool time, not flagged"
		}
		row("stall", what)
	}
	row("lines", fmt.Sprintf("%d · %d bytes · %d raw · %d error lines", s.LineCount, s.ByteCount, s.RawLineCount, s.ErrorLineCount)+
		map[bool]string{true: " · TRUNCATED", false: ""}[s.Truncated])
	if s.FinalAssistantMessage != nil {
		row("final", oneLine(*s.FinalAssistantMessage))
	}
	if s.Plaintext {
		for _, l := range s.Tail {
			row("tail", oneLine(l))
		}
	}
}

func optional(prefix, v string) string {
	if v == "" {
		return ""
	}
	return prefix + v
}

func joinFlags(fs []summary.Flag) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = string(f)
	}
	return strings.Join(parts, ", ")
}

func fmtMs(p *int64) string {
	if p == nil {
		return "–"
	}
	return (time.Duration(*p) * time.Millisecond).String()
}

func fmtInt(p *int64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%d", *p)
}

func fmtIntp(p *int) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("%d", *p)
}

// oneLine flattens text to its first line, made inert and cut to at most
// 100 runes without splitting a rune or an escape.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return textsafe.Truncate(s, 100)
}

// inertEncoder is the encoder of each part of a streamed summary:
// textsafe's, which keeps control characters of stream text inert.
func inertEncoder(w io.Writer) summary.Encoder { return textsafe.NewEncoder(w) }

// reconciliationText says a summary's reconciliation in one line: the
// harness's total and the calls' sum side by side, and what they mean.
func reconciliationText(r *summary.Reconciliation) string {
	side := func(name string, f *summary.TokenFigures) string {
		if f == nil {
			return name + " —"
		}
		return fmt.Sprintf("%s in %d · out %d", name, f.Input, f.Output)
	}
	harness := "harness"
	if r.Source != "" {
		harness += " (" + r.Source + ")"
	}
	return side(harness, r.HarnessTotal) + " | " + side("calls", r.CallsTotal) + optional(" — ", r.Note)
}

// writeFlagNotes prints why the session is flagged: each flag as a sentence
// with the lines that raised it, the session's own first, then each
// flagged turn's.
func writeFlagNotes(row func(k, v string), s *summary.Summary) {
	for _, n := range s.FlagNotes {
		switch {
		case n.TurnID != "":
		case n.Flag.Accounting():
			// How the counts were read: not a reason to review, as
			// in the inbox.
			row("accounting", oneLine(n.String()))
		default:
			row("flagged", oneLine(n.String()))
		}
	}
	for _, t := range s.Turns {
		for _, n := range t.FlagNotes {
			row("flagged "+t.TurnID, oneLine(n.String()))
		}
		if len(t.Flags) > 0 && len(t.FlagNotes) == 0 {
			row("flagged "+t.TurnID, fmt.Sprintf("line %d: %s", t.Line, joinFlags(t.Flags)))
		}
	}
}
