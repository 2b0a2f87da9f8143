package export

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/summary"
)

// evidenceCap is how many evidence lines a finding lists.
const evidenceCap = 3

// FlagFindings says each of a session's flags as a sentence, with up to
// three stream lines that show it. It is the one place the report reads
// flags from: the summary's own flag notes (summary.FlagNote) where it has
// them, else a sentence made here from its calls, stalls and turns (a
// summary stored before the notes).
func FlagFindings(s *summary.Summary) []FlagFinding {
	out := make([]FlagFinding, 0, len(s.Flags))
	for _, f := range s.Flags {
		ff := FlagFinding{Flag: f, Evidence: []string{}}
		if notes := flagNotes(s, f); len(notes) > 0 {
			ff.Sentence = notes[0].Sentence
			if len(notes) > 1 {
				ff.Sentence += fmt.Sprintf(" (and %d more)", len(notes)-1)
			}
			for _, n := range notes {
				ff.evidence(n.Line, n.Sentence)
			}
			out = append(out, ff)
			continue
		}
		switch f {
		case summary.FlagToolFailed:
			n := 0
			for _, c := range s.ToolCalls {
				if c.Success != nil && !*c.Success && !c.ApprovalRequired {
					n++
					ff.evidence(c.Line, callText(&c))
				}
			}
			ff.Sentence = fmt.Sprintf("%s failed.", plural(n, "tool call"))
		case summary.FlagApproval:
			for _, c := range s.ToolCalls {
				if c.ApprovalRequired {
					ff.evidence(c.Line, callText(&c))
				}
			}
			ff.Sentence = fmt.Sprintf("%s stopped for approval.", plural(s.ApprovalCount, "tool call"))
		case summary.FlagUnfinishedTool:
			n := 0
			for _, c := range s.ToolCalls {
				if c.Success == nil {
					n++
					ff.evidence(c.Line, callText(&c))
				}
			}
			ff.Sentence = fmt.Sprintf("%s never returned a result.", plural(n, "tool call"))
		case summary.FlagStall:
			var longest int64
			n := 0
			for _, st := range s.Stalls {
				if !st.Flagged {
					continue // tool time, not a stall
				}
				n++
				longest = max(longest, st.GapMs)
				ff.evidence(st.Line, fmt.Sprintf("waited %s (%s) in %s", fmtDuration(st.GapMs), st.Kind, st.TurnID))
			}
			ff.Sentence = fmt.Sprintf("%s, the longest %s.", plural(n, "stall"), fmtDuration(longest))
		case summary.FlagRunFailed:
			ff.Sentence = "The run failed (outcome " + Outcome(s) + exitText(s.ExitCode) + ")."
			if s.FinalAssistantMessage != nil {
				ff.evidence(0, *s.FinalAssistantMessage)
			}
		case summary.FlagTruncated:
			ff.Sentence = "The capture was truncated: the stream is incomplete."
		default:
			n := 0
			for _, t := range s.Turns {
				for _, tf := range t.Flags {
					if tf == f {
						n++
						ff.evidence(t.Line, t.TurnID+" "+t.Text)
					}
				}
			}
			ff.Sentence = flagSentence(f, n)
		}
		out = append(out, ff)
	}
	return out
}

// flagSentence says a per-turn flag that FlagFindings has no rule of its
// own for.
func flagSentence(f summary.Flag, turns int) string {
	switch {
	case f == summary.FlagHarnessError && turns == 0:
		return "The harness reported an error."
	case f == summary.FlagHarnessError:
		return fmt.Sprintf("The harness reported an error in %s.", plural(turns, "turn"))
	case f == summary.FlagTokenSpike:
		return fmt.Sprintf("%s used far more tokens than the session's usual turn.", plural(turns, "turn"))
	}
	return fmt.Sprintf("Flag %s on %s.", f, plural(turns, "turn"))
}

// evidence adds one line of evidence (line 0: no stream line), redacted
// and cut to one short line.
// flagNotes are the summary's notes of a flag: the session's list (its
// own first, then its turns'), else its turns' own lists.
func flagNotes(s *summary.Summary, f summary.Flag) []summary.FlagNote {
	var out []summary.FlagNote
	for _, n := range s.FlagNotes {
		if n.Flag == f {
			out = append(out, n)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, t := range s.Turns {
		for _, n := range t.FlagNotes {
			if n.Flag == f {
				out = append(out, n)
			}
		}
	}
	return out
}

func (ff *FlagFinding) evidence(line int, text string) {
	if len(ff.Evidence) == evidenceCap {
		return
	}
	text = strings.Join(strings.Fields(redact.String(text)), " ")
	if r := []rune(text); len(r) > 120 {
		text = string(r[:119]) + "…"
	}
	if line > 0 {
		text = fmt.Sprintf("line %d: %s", line, text)
	}
	ff.Evidence = append(ff.Evidence, text)
}

// callText is one tool call as evidence.
func callText(c *summary.ToolCall) string {
	s := c.Name
	if c.InputSummary != "" {
		s += " " + c.InputSummary
	}
	if c.ExitCode != nil {
		s += fmt.Sprintf(" (exit %d)", *c.ExitCode)
	}
	if c.Error != nil && *c.Error != "" {
		s += " → " + *c.Error
	}
	return s
}

func exitText(code *int) string {
	if code == nil {
		return ""
	}
	return fmt.Sprintf(", exit code %d", *code)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// fmtDuration prints milliseconds as a short duration (1m30s, 850ms).
func fmtDuration(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	if d >= time.Second {
		d = d.Round(time.Second)
	}
	return d.String()
}
