package agents

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/agentsift/sift/core/agents/internal/testfiles"

	"github.com/agentsift/sift/core/event"
)

// jsonNumber is a number value of a JSON object's key.
var jsonNumber = regexp.MustCompile(`(":\s*)(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)`)

// negativeCounter names a counter of an update that is below zero.
func negativeCounter(u *event.Update) string {
	for name, p := range map[string]*int64{"promptTokens": u.PromptTokens, "completionTokens": u.CompletionTokens,
		"cachedTokens": u.CachedTokens, "durationMs": u.DurationMs, "truncatedBytes": u.TruncatedBytes} {
		if p != nil && *p < 0 {
			return name
		}
	}
	if u.NumTurns != nil && *u.NumTurns < 0 {
		return "numTurns"
	}
	if u.CostUSD != nil && !(*u.CostUSD >= 0) {
		return "costUsd"
	}
	for k, v := range u.UsageExtra {
		if v < 0 {
			return "usageExtra." + k
		}
	}
	return ""
}

// TestCountersNeverNegative rewrites every number of every recorded
// stream as a negative one, then as one near math.MaxInt64 (whose sums
// wrap), and parses it: no event carries a counter below zero, so that
// nothing a stream prints subtracts from a sum.
func TestCountersNeverNegative(t *testing.T) {
	for _, fx := range fixtures(t) {
		data := testfiles.MustRead(t, fx.path)
		for _, edit := range []struct{ name, repl string }{
			{"negative", "${1}-${2}"},
			{"huge", "${1}9000000000000000000"},
		} {
			t.Run(fx.dir+"/"+fx.name+"/"+edit.name, func(t *testing.T) {
				text := jsonNumber.ReplaceAll(data, []byte(edit.repl))
				if bytes.Equal(text, data) {
					t.Skip("no numbers")
				}
				for _, ev := range eventsOf(t, fx.declared(), string(text)) {
					if c := negativeCounter(&ev.Update); c != "" {
						t.Errorf("line %d: %s %s is negative", ev.Line, ev.Update.SessionUpdate, c)
					}
				}
			})
		}
	}
}
