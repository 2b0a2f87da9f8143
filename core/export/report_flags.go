package export

import (
	"fmt"
	"strings"

	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/summary"
)

// How much of a finding the report shows: evidenceCap lines of evidence
// besides the sentence, each cut to evidenceWidth characters, the
// sentence to sentenceCap.
const (
	evidenceCap   = 3
	evidenceWidth = 120
	sentenceCap   = 160
)

// oneLine is text redacted, on one line, cut to n characters.
func oneLine(text string, n int) string {
	text = strings.Join(strings.Fields(redact.String(text)), " ")
	if r := []rune(text); len(r) > n {
		text = string(r[:n-1]) + "…"
	}
	return text
}

// FlagFindings says each of a session's flags as a sentence, with the
// stream line it rests on and up to three other lines that show it; the
// accounting flags (usage_mismatch, token_counter_reset), which flag no
// session, are left out. It is the one place the report reads
// flags from: the summary's own flag notes (summary.FlagNote) where it has
// them, else a sentence made here from its calls, stalls and turns (a
// summary stored before the notes).
func FlagFindings(s *summary.Summary) []FlagFinding {
	out := make([]FlagFinding, 0, len(s.Flags))
	for _, f := range s.Flags {
		if f.Accounting() {
			continue // how the counts were read: it flags no session
		}
		ff := FlagFinding{Flag: f, Evidence: []string{}}
		if notes := flagNotes(s, f); len(notes) > 0 {
			ff.Sentence, ff.Line = oneLine(notes[0].Sentence, sentenceCap), notes[0].Line
			for i, n := range notes[1:] {
				if i == evidenceCap {
					ff.Evidence = append(ff.Evidence, fmt.Sprintf("and %d more", len(notes)-1-evidenceCap))
					break
				}
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
		ff.Sentence = oneLine(ff.Sentence, sentenceCap)
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

// evidence adds one line of evidence (line 0: no stream line), redacted
// and cut to one short line.
func (ff *FlagFinding) evidence(line int, text string) {
	if len(ff.Evidence) == evidenceCap {
		return
	}
	text = oneLine(text, evidenceWidth)
	if text == "" {
		return
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
