package tui

import (
	"strconv"
	"strings"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/summary"
)

// tokenCause is why a session's turns and its total disagree.
type tokenCause uint8

const (
	// tokensAgree: the turns add up to the total, or there is nothing to
	// compare (no turn reports tokens, or the session has no total).
	tokensAgree tokenCause = iota
	// tokensSubagents: the turns count their subagents' usage, which the
	// harness's total (claude's result line) leaves out.
	tokensSubagents
	// tokensEarlyUsage: the turns count less output than the total: the
	// harness printed each message's usage before the message ended
	// (claude's stream-json), and its total has the final counts.
	tokensEarlyUsage
	// tokensUnitemised: the total counts more than the turns report: the
	// harness's run total includes usage the stream does not itemise (an
	// earlier run of a resumed session).
	tokensUnitemised
	// tokensUnexplained: the turns count more, and no subagent explains it.
	tokensUnexplained
	// tokensRunOnly: no turn reports its tokens; the harness printed its
	// run total only (codex exec's turn.completed).
	tokensRunOnly
)

// tokenCheck compares a session's turns' token figures with its own.
type tokenCheck struct {
	cause tokenCause
	// in and out are the turns' sums less the session's; turnIn and
	// turnOut the sums.
	in, out         int64
	turnIn, turnOut int64
	// subagentCalls counts the calls made inside subagents, subagentTurns
	// names the turns that hold them.
	subagentCalls int
	subagentTurns []string
}

// reconcileTokens compares the turns' tokens with the session's and says
// why they differ, from the summary's own figures: the turns add each
// message's last usage line (a subagent's in the turn of the call that
// started it); the session's is the harness's run total when it printed
// one.
func reconcileTokens(s *summary.Summary) tokenCheck {
	var c tokenCheck
	reported := false
	for _, t := range s.Turns {
		if t.InputTokens != nil || t.OutputTokens != nil {
			reported = true
		}
		c.turnIn = event.AddCount(c.turnIn, val(t.InputTokens))
		c.turnOut = event.AddCount(c.turnOut, val(t.OutputTokens))
	}
	if !reported && len(s.Turns) > 0 && (s.InputTokens != nil || s.OutputTokens != nil) {
		c.cause = tokensRunOnly
		return c
	}
	if !reported || (s.InputTokens == nil && s.OutputTokens == nil) {
		return c
	}
	c.in, c.out = c.turnIn-val(s.InputTokens), c.turnOut-val(s.OutputTokens)
	for _, tc := range s.ToolCalls {
		if tc.ParentToolCallID == "" {
			continue
		}
		c.subagentCalls++
		if tc.TurnID != "" && !strings.Contains(" "+strings.Join(c.subagentTurns, " ")+" ", " "+tc.TurnID+" ") {
			c.subagentTurns = append(c.subagentTurns, tc.TurnID)
		}
	}
	switch {
	case c.in == 0 && c.out == 0:
	case (c.in > 0 || c.out > 0) && c.subagentCalls > 0:
		c.cause = tokensSubagents
	case c.in == 0 && c.out < 0:
		c.cause = tokensEarlyUsage
	case c.in <= 0 && c.out <= 0:
		c.cause = tokensUnitemised
	default:
		c.cause = tokensUnexplained
	}
	return c
}

func val(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// note says what the difference is, in a line; "" when they agree.
func (c tokenCheck) note() string {
	diff := signed(c.in) + " in, " + signed(c.out) + " out"
	switch c.cause {
	case tokensSubagents:
		return "turns count " + diff + ": " + plural(c.subagentCalls, "subagent call") + " in " +
			strings.Join(c.subagentTurns, ", ") + ", which the harness's total leaves out"
	case tokensEarlyUsage:
		return "turns count " + signed(c.out) + " out: the harness printed each message's usage before it ended"
	case tokensUnitemised:
		var more []string
		if in := -c.in; in > 0 {
			more = append(more, fmtTokens(&in)+" in")
		}
		if out := -c.out; out > 0 {
			more = append(more, fmtTokens(&out)+" out")
		}
		return "the harness's total counts " + strings.Join(more, " and ") + " more than the turns report: usage the stream does not itemise"
	case tokensRunOnly:
		return "no turn reports its tokens: the harness printed only its run total, so the turns show —"
	case tokensUnexplained:
		return "turns count " + diff + " more than the harness's total; the stream does not say why"
	}
	return ""
}

// signed is a token difference with its sign: +150k, −810, 0.
func signed(n int64) string {
	switch {
	case n > 0:
		return "+" + fmtTokens(&n)
	case n < 0:
		m := -n
		return "−" + fmtTokens(&m)
	}
	return strconv.Itoa(0)
}
