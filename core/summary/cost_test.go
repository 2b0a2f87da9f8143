package summary

import (
	"math"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/pricing"
)

// said is an agent message of message id, and use its usage report.
func said(line int, id string, in, out int64, cost *float64) []*event.Event {
	msg := &event.Event{Line: line, MessageID: id, Update: event.Update{SessionUpdate: event.AgentMessageChunk,
		Content: &event.Content{Type: "text", Text: "ok"}}}
	use := &event.Event{Line: line, MessageID: id, Update: event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall,
		PromptTokens: &in, CompletionTokens: &out, CostUSD: cost}}
	return []*event.Event{msg, use}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestTurnCostPricesEachRequest: each request is priced at the band its
// own prompt falls in. Two requests of 150k prompt tokens pay the base
// rate even when the harness's run total (300k) is above the model's
// 200k band; one request of 250k pays the band's rate.
func TestTurnCostPricesEachRequest(t *testing.T) {
	t.Parallel()
	const model = "gemini-2.5-pro"
	m, ok := pricing.Default().Priced(model)
	if !ok {
		t.Fatalf("%s is not in the catalog", model)
	}
	cost := func(in, out int64) float64 {
		v, err := m.Cost(pricing.Request{Input: in, Output: out})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	each, long, sum := cost(150_000, 1_000), cost(250_000, 1_000), cost(300_000, 2_000)
	if near(2*each, sum) || near(long, cost(200_000, 1_000)*250/200) {
		t.Fatalf("%s has no band above 200k tokens: the test proves nothing", model)
	}
	start := &event.Event{Line: 1, Model: model, Update: event.Update{SessionUpdate: event.SessionStart}}
	in, out := int64(300_000), int64(2_000)
	total := &event.Event{Line: 4, Update: event.Update{SessionUpdate: event.Usage, Scope: event.ScopeRun,
		PromptTokens: &in, CompletionTokens: &out}}

	evs := append([]*event.Event{start}, said(2, "m1", 150_000, 1_000, nil)...)
	evs = append(evs, said(3, "m2", 150_000, 1_000, nil)...)
	evs = append(evs, total)
	s, _ := Events(evs, event.Stats{Agent: "gemini"}, Options{})
	if s.CostSource != CostEstimate || s.EstimatedUSD == nil || !near(*s.EstimatedUSD, 2*each) {
		t.Fatalf("cost %v (%s: %s), want %v: each request at its own band (the total as one request: %v)",
			s.EstimatedUSD, s.CostSource, s.CostBasis, 2*each, sum)
	}
	if len(s.Turns) != 2 {
		t.Fatalf("%d turns, want 2", len(s.Turns))
	}
	for _, tu := range s.Turns {
		if tu.EstimatedUSD == nil || !near(*tu.EstimatedUSD, each) || tu.CostSource != CostEstimate {
			t.Errorf("turn %s cost %v (%s), want %v (estimate)", tu.TurnID, tu.EstimatedUSD, tu.CostSource, each)
		}
	}

	evs = append([]*event.Event{start}, said(2, "m1", 250_000, 1_000, nil)...)
	s, _ = Events(evs, event.Stats{Agent: "gemini"}, Options{})
	if s.EstimatedUSD == nil || !near(*s.EstimatedUSD, long) || !near(*s.Turns[0].EstimatedUSD, long) {
		t.Errorf("a 250k request: cost %v, want %v (the band's rate)", s.EstimatedUSD, long)
	}
}

// TestZeroHarnessCostIsNotAPrice: opencode's cost 0 for tokens spent is
// estimated at the invocation's model when there is one, else unknown;
// a nonzero harness cost is kept as it is.
func TestZeroHarnessCostIsNotAPrice(t *testing.T) {
	t.Parallel()
	zero, real := 0.0, 0.0123
	run := func(opt Options, cost *float64) *Summary {
		var evs []*event.Event
		evs = append(evs, said(1, "m1", 20_000, 100, cost)...)
		evs = append(evs, said(2, "m2", 22_000, 50, cost)...)
		s, _ := Events(evs, event.Stats{Agent: "opencode"}, opt)
		return s
	}
	s := run(Options{Agent: "opencode"}, &zero)
	if s.EstimatedUSD != nil || s.CostSource != CostUnknown || !strings.Contains(s.CostBasis, "harness reported $0") {
		t.Errorf("no model: cost %v (%s: %s), want unknown saying the harness reported $0",
			s.EstimatedUSD, s.CostSource, s.CostBasis)
	}
	s = run(Options{Agent: "opencode", Model: "anthropic/claude-sonnet-4-5", ModelSource: "-m"}, &zero)
	if s.EstimatedUSD == nil || *s.EstimatedUSD <= 0 || s.CostSource != CostEstimate {
		t.Errorf("model from -m: cost %v (%s: %s), want a positive estimate", s.EstimatedUSD, s.CostSource, s.CostBasis)
	}
	if s.Model != "anthropic/claude-sonnet-4-5" || s.ModelSource != "-m" || s.ModelOrigin() != "-m" {
		t.Errorf("model %q from %q, want the invocation's, from -m", s.Model, s.ModelSource)
	}
	s = run(Options{Agent: "opencode"}, &real)
	if s.EstimatedUSD == nil || !near(*s.EstimatedUSD, 2*real) || s.CostSource != CostHarness {
		t.Errorf("harness costs: %v (%s), want %v (harness)", s.EstimatedUSD, s.CostSource, 2*real)
	}
	for _, tu := range s.Turns {
		if tu.EstimatedUSD == nil || !near(*tu.EstimatedUSD, real) || tu.CostSource != CostHarness {
			t.Errorf("turn %s: %v (%s), want %v (harness)", tu.TurnID, tu.EstimatedUSD, tu.CostSource, real)
		}
	}
}

// TestStreamModelWinsOverTheInvocations: the model the stream names is
// reported (and priced) from the stream, whatever the invocation asked.
func TestStreamModelWinsOverTheInvocations(t *testing.T) {
	t.Parallel()
	evs := []*event.Event{{Line: 1, Model: "gemini-2.5-flash", Update: event.Update{SessionUpdate: event.SessionStart}}}
	evs = append(evs, said(2, "m1", 1_000, 10, nil)...)
	s, _ := Events(evs, event.Stats{Agent: "gemini"}, Options{Model: "gemini-2.5-pro", ModelSource: "-m"})
	if s.Model != "gemini-2.5-flash" || s.ModelSource != ModelFromStream || s.ModelOrigin() != "the stream" {
		t.Errorf("model %q from %q, want gemini-2.5-flash from the stream", s.Model, s.ModelSource)
	}
	if !strings.Contains(s.CostBasis, "gemini-2.5-flash") {
		t.Errorf("priced as %q, want gemini-2.5-flash", s.CostBasis)
	}
}
