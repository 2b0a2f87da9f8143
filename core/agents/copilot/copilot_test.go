package copilot

import (
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

const copilotFixture = "copilot/firaga-plaintext-stdout-stderr-stats.txt"

// The footer's own totals: Total usage est 0.33, API 2m 27.759s, wall
// 2m 49.164s, one model with 2.5m input, 16.3k output, 2.5m cache read.
func TestCopilotFooterTotals(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Copilot, agentstest.StreamFixture(t, copilotFixture))
	if raw := agentstest.OfKind(evs, event.Raw); len(raw) != 0 {
		t.Fatalf("raw: %+v", raw)
	}
	us := agentstest.OfKind(evs, event.Usage)
	if len(us) != 1 {
		t.Fatalf("%d usage events", len(us))
	}
	u := us[0]
	if u.Update.Scope != event.ScopeRun || u.Model != "claude-haiku-4.5" || u.Line != 164 ||
		*u.Update.PromptTokens != 2_500_000 || *u.Update.CompletionTokens != 16_300 || *u.Update.CachedTokens != 2_500_000 ||
		u.Update.UsageExtra["premium_requests_milli"] != 330 || u.Extra["premium_requests"] != 0.33 ||
		u.Update.UsageExtra["lines_removed"] != 0 || len(u.Update.UsageExtra) != 3 || u.Update.CostUSD != nil {
		t.Fatalf("usage = %+v %+v", u, u.Update)
	}
	res := agentstest.OfKind(evs, event.Result)
	if len(res) != 1 || *res[0].Update.DurationMs != 169_164 || res[0].Extra["duration_api_ms"] != int64(147_759) ||
		res[0].Update.IsError != nil || res[0].Line != 164 {
		t.Fatalf("result = %+v", res)
	}
	if st := agentstest.OfKind(evs, event.Stderr); len(st) != 7 || st[0].Line != 158 ||
		st[5].Update.Text != "claude-haiku-4.5     2.5m input, 16.3k output, 2.5m cache read (Est. 0.33 Premium requests)" {
		t.Fatalf("stderr = %+v", st)
	}
	var text strings.Builder
	for _, m := range agentstest.OfKind(evs, event.AgentMessageChunk) {
		text.WriteString(m.Update.Content.Text)
	}
	got := text.String()
	if !strings.HasPrefix(got, "# Copilot Session\n\nI'll read the prompt file first") ||
		!strings.Contains(got, "The implementation follows the existing codebase patterns") || strings.Contains(got, "Premium") {
		t.Fatalf("narration = %q", got[:min(len(got), 200)])
	}
}

// Built after the footer quoted in github/copilot-cli#1393.
func TestCopilotNewerFooterWording(t *testing.T) {
	t.Parallel()
	in := `Done.
 Total usage est:        7 Premium requests
 API time spent:         2m 59.626s
 Total session time:     12m 15.77s
 Total code changes:     +206 -77
 Breakdown by AI model:
  claude-sonnet-4.5       453.0k in, 13.1k out, 405.7k cached (Est. 7 Premium requests)
  gpt-5-mini              1.2k in, 300 out (Est. 0 Premium requests)
`
	evs := agentstest.EventsOf(t, agents.Copilot, in)
	u := agentstest.OfKind(evs, event.Usage)
	if len(u) != 1 || *u[0].Update.PromptTokens != 454_200 || *u[0].Update.CompletionTokens != 13_400 ||
		*u[0].Update.CachedTokens != 405_700 || u[0].Model != "" || u[0].Update.UsageExtra["lines_added"] != 206 ||
		u[0].Update.UsageExtra["lines_removed"] != 77 || u[0].Update.UsageExtra["premium_requests_milli"] != 7000 {
		t.Fatalf("usage = %+v", u)
	}
	if models, _ := u[0].Extra["models"].([]any); len(models) != 2 {
		t.Fatalf("per-model rows = %+v", u[0].Extra)
	}
	r := agentstest.OfKind(evs, event.Result)
	if len(r) != 1 || *r[0].Update.DurationMs != 735_770 || r[0].Extra["duration_api_ms"] != int64(179_626) {
		t.Fatalf("result = %+v", r)
	}
	if n := len(agentstest.OfKind(evs, event.AgentMessageChunk)); n != 1 {
		t.Errorf("%d narration chunks", n)
	}
}

func TestCopilotWithoutFooterHasNoResult(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Copilot, "Working on it.\n\nStill working\n")
	if len(agentstest.OfKind(evs, event.Result)) != 0 || len(agentstest.OfKind(evs, event.Usage)) != 0 {
		t.Fatal("a killed run has no result")
	}
	msgs := agentstest.OfKind(evs, event.AgentMessageChunk)
	if len(msgs) != 2 || msgs[1].Update.Content.Text != "\nStill working\n" {
		t.Fatalf("the paragraph break is lost: %+v", msgs)
	}
}

func TestCopilotStatisticOutsideAFooterShapeStaysNarration(t *testing.T) {
	t.Parallel()
	in := "Total usage est: unknown until the run ends\nclaude-haiku-4.5 2.5m input\nSession exported to: nowhere\n"
	evs := agentstest.EventsOf(t, agents.Copilot, in)
	if n := len(agentstest.OfKind(evs, event.AgentMessageChunk)); n != 3 || len(agentstest.OfKind(evs, event.Usage)) != 0 {
		t.Fatalf("events = %+v", evs)
	}
}

func TestCopilotTwoInvocationsTwoResults(t *testing.T) {
	t.Parallel()
	footer := "Total usage est: 1 Premium requests\nTotal duration (wall): 3s\n"
	evs := agentstest.EventsOf(t, agents.Copilot, "one\n"+footer+footer+"two\n"+footer)
	r := agentstest.OfKind(evs, event.Result)
	if len(r) != 3 || r[0].Line != 3 || r[1].Line != 5 || r[2].Line != 8 || *r[2].Update.DurationMs != 3000 {
		t.Fatalf("results = %+v", r)
	}
}

func TestCopilotAbbreviatedCounts(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"16": 16, "157.1k": 157_100, "2.5m": 2_500_000, "1b": 1_000_000_000} {
		if n, ok := abbreviated(in); !ok || n != want {
			t.Errorf("%s = %d %v", in, n, ok)
		}
	}
	for _, bad := range []string{"k", "-1k", "1e400m", "x"} {
		if _, ok := abbreviated(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestCopilotClaimsNothing(t *testing.T) {
	t.Parallel()
	if (copilotParser{}).Claims([]byte(`{"type":"message"}`)) {
		t.Fatal("copilot claimed a line")
	}
}

func FuzzParseCopilot(f *testing.F) {
	seeds := agentstest.FixtureSeeds(f, "copilot")
	seeds = append(seeds, "Total usage est: 1 Premium requests\nBreakdown by AI model:\n m 1k in, 2 out\n\x01x\n")
	agentstest.FuzzParser(f, agents.Copilot, seeds...)
}
