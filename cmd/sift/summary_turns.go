package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/textsafe"
)

// maxTurnRows is how many turns `sift summary` lists; --json lists all.
const maxTurnRows = 50

// modelLine is a summary's model with where it was read: "gpt-5 (from
// --model)".
func modelLine(s *summary.Summary) string {
	if o := s.ModelOrigin(); o != "" {
		return s.Model + " (from " + o + ")"
	}
	return s.Model
}

// toolTurnsCost says what the turns that called tools cost, after the
// turn count: " · 3 calling tools: $0.0123".
func toolTurnsCost(turns []summary.Turn) string {
	n, priced := 0, 0
	var usd float64
	for _, t := range turns {
		if len(t.ToolCallIDs) == 0 {
			continue
		}
		n++
		if t.EstimatedUSD != nil {
			priced++
			usd = event.AddUSD(usd, *t.EstimatedUSD)
		}
	}
	switch {
	case n == 0:
		return ""
	case priced == 0:
		return fmt.Sprintf(" · %d calling tools", n)
	case priced < n:
		return fmt.Sprintf(" · %d calling tools: $%.4f for %d priced", n, usd, priced)
	}
	return fmt.Sprintf(" · %d calling tools: $%.4f", n, usd)
}

// writeTurns prints the turn table: each turn's line, tokens, cost and
// where it came from, tool calls and flags; the model when it is not the
// session's. Stream text in it is printed inert.
func writeTurns(w io.Writer, s *summary.Summary) {
	if len(s.Turns) == 0 {
		return
	}
	fmt.Fprintf(w, "  %-6s %6s %9s %8s %10s %-9s %5s  %s\n", "turn", "line", "in", "out", "cost", "", "calls", "flags / model")
	for i, t := range s.Turns {
		if i == maxTurnRows {
			fmt.Fprintf(w, "  … %d more turns: sift summary --json lists them\n", len(s.Turns)-i)
			break
		}
		cost, src := "–", ""
		if t.EstimatedUSD != nil {
			cost, src = fmt.Sprintf("$%.4f", *t.EstimatedUSD), string(t.CostSource)
		} else if t.CostSource == summary.CostUnknown {
			cost = "unknown"
		}
		var notes []string
		if len(t.Flags) > 0 {
			notes = append(notes, joinFlags(t.Flags))
		}
		if t.Model != "" && t.Model != s.Model {
			notes = append(notes, t.Model)
		}
		line := fmt.Sprintf("  %-6s %6d %9s %8s %10s %-9s %5d  %s", textsafe.Inert(t.TurnID), t.Line,
			fmtInt(t.InputTokens), fmtInt(t.OutputTokens), cost, src, len(t.ToolCallIDs),
			textsafe.Inert(oneLine(strings.Join(notes, " · "))))
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}
