package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// dash is shown for an unknown value: never 0.
const dash = "—"

// tokensOf is input plus output tokens, nil when neither is known.
func tokensOf(s *summary.Summary) *int64 {
	if s.InputTokens == nil && s.OutputTokens == nil {
		return nil
	}
	var t int64
	for _, n := range []*int64{s.InputTokens, s.OutputTokens} {
		if n != nil {
			t = event.AddCount(t, *n)
		}
	}
	return &t
}

// fmtTokens is a count in k and M: 512, 45k, 2.1M.
func fmtTokens(n *int64) string {
	if n == nil {
		return dash
	}
	v := *n
	switch {
	case v < 1000:
		return strconv.FormatInt(v, 10)
	case v < 100_000:
		s := strconv.FormatFloat(float64(v)/1000, 'f', 1, 64)
		return strings.TrimSuffix(s, ".0") + "k"
	case v < 1_000_000:
		return strconv.FormatInt(v/1000, 10) + "k"
	}
	s := strconv.FormatFloat(float64(v)/1e6, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + "M"
}

// fmtCost is a dollar figure: $4.81, $0.037, or a dash.
func fmtCost(c *float64, src summary.CostSource) string {
	if c == nil {
		return dash
	}
	prefix := "$"
	if src == summary.CostEstimate {
		prefix = "~$"
	}
	switch v := *c; {
	case v >= 100:
		return prefix + strconv.FormatFloat(v, 'f', 0, 64)
	case v > 0 && v < 0.005:
		return "<" + prefix + "0.01"
	default:
		return prefix + strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// fmtMs is a duration from milliseconds: 850ms, 12s, 2m10s, 1h05m.
func fmtMs(ms *int64) string {
	if ms == nil {
		return dash
	}
	return fmtDur(time.Duration(*ms) * time.Millisecond)
}

// fmtDur is a short duration: 850ms, 12s, 2m10s, 1h05m.
func fmtDur(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < 10*time.Second:
		return strings.Replace(fmt.Sprintf("%.1fs", d.Seconds()), ".0s", "s", 1)
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// fmtAgo is a start time relative to now: 45s, 12m, 3h, 2d, or the date.
func fmtAgo(t *time.Time, now time.Time) string {
	if t == nil {
		return dash
	}
	// Dates are in the clock's zone: the local one, fixed in tests.
	d, at := now.Sub(*t), t.In(now.Location())
	switch {
	case d < 0:
		return at.Format("15:04")
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return at.Format("Jan 02")
}

// fmtCount is a counter, blank for zero so that non-zero ones stand out.
func fmtCount(n int) string {
	if n == 0 {
		return "·"
	}
	return strconv.Itoa(n)
}

// phaseLabel is "work item · phase-iteration" (review.Label); a history
// session names its project instead of its work item (Session.Project).
func phaseLabel(s *review.Session) string {
	if s.Project != "" {
		return s.Project + " · " + review.PhaseLabel(s.Phase, s.Iteration)
	}
	return review.Label(s.WorkItemID, s.Phase, s.Iteration)
}

// firstLine returns the first non-empty line of s, trimmed.
func firstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}

// lastWords is the start of a session's final message, or the last line
// of a plaintext stream.
func lastWords(s *summary.Summary) string {
	if s.FinalAssistantMessage != nil {
		return firstLine(*s.FinalAssistantMessage)
	}
	for i := len(s.Tail) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(s.Tail[i]); l != "" {
			return l
		}
	}
	return ""
}

// displayName is the operator's name for a tool: "Ran a command".
func displayName(tc *summary.ToolCall) string {
	return summary.DisplayName(tc.Name, event.ToolKind(tc.Kind))
}

// callStatus is a tool call's outcome in one word.
func callStatus(tc *summary.ToolCall) string {
	switch {
	case tc.ApprovalRequired:
		return "approval"
	case tc.Success == nil:
		return "unfinished"
	case *tc.Success:
		return "ok"
	}
	return "failed"
}

// flagName is a flag's name in a view: the operator's word, or the flag.
func flagName(mode Mode, f summary.Flag) string {
	if mode == Operator {
		return operatorFlag(f)
	}
	return string(f)
}

// outcomeText is a run's outcome with its evidence: "died_before_start:
// The 'gpt-5.6-sol' model requires a newer version of Codex (line 5)".
func outcomeText(s *summary.Summary) string {
	ev := s.OutcomeEvidence.String()
	if ev == "" {
		return s.Outcome.Word()
	}
	return s.Outcome.Word() + ": " + ev
}

// noteText is flag notes as sentences with their lines, one a line.
func noteText(notes []summary.FlagNote) string {
	lines := make([]string, len(notes))
	for i, n := range notes {
		lines[i] = n.String()
	}
	return strings.Join(lines, "\n")
}
