package main

import (
	"strconv"
	"strings"
	"testing"
)

// e2eModel is what the store should say of a scripted run's model: the
// model, where it was read and how its cost was found.
type e2eModel struct {
	model, source string
	// costSource is the summary's; basis a part of its costBasis.
	costSource, basis string
}

// e2eModels are the scripted runs' models. Codex's stream names none:
// `sift run` read it from the config.toml the setup wrote in the
// throwaway $CODEX_HOME (~/.codex) at the run's start, and the run is
// priced from the catalog. opencode's names none either: -m names a
// model of the mock provider that no catalog lists, and opencode prints
// cost 0 for its tokens, so the cost is unknown rather than $0.
func e2eModels() map[string]e2eModel {
	return map[string]e2eModel{
		"claude":   {"claude-opus-5-5", "stream", "harness", "harness run total"},
		"codex":    {"gpt-5.5", "~/.codex/config.toml", "estimate", "gpt-5.5"},
		"gemini":   {"gemini-2.5-pro", "stream", "estimate", "gemini-2.5-pro"},
		"opencode": {"mock/mock-model", "-m", "unknown", "harness reported $0 for"},
	}
}

// e2eCheckModel: the invocation row holds the model sift run read at the
// start, and the stored summary reports it with its source and prices it.
func e2eCheckModel(t *testing.T, sift string, c e2eCLI, r *e2eRun) {
	want, ok := e2eModels()[c.kind]
	if !ok {
		t.Fatalf("no expected model for %s", c.kind)
	}
	k := e2eInvocation(t, c, r, 0)
	if want.source != "stream" && (k.Model != want.model || k.ModelSource != want.source) {
		t.Errorf("invocation model %q from %q, want %q from %q", k.Model, k.ModelSource, want.model, want.source)
	}
	s := e2eStored(t, sift, c, r)
	if s.Model != want.model || s.ModelSource != want.source {
		t.Errorf("stored model %q (modelSource %q), want %q from %q", s.Model, s.ModelSource, want.model, want.source)
	}
	if s.CostSource != want.costSource || !strings.Contains(s.CostBasis, want.basis) {
		t.Errorf("stored cost %s (%s: %s), want %s naming %q", e2eFloat(s.EstimatedUSD), s.CostSource, s.CostBasis,
			want.costSource, want.basis)
	}
	if (s.EstimatedUSD != nil) != (want.costSource != "unknown") || s.EstimatedUSD != nil && *s.EstimatedUSD <= 0 {
		t.Errorf("stored cost %s, want a positive one unless unknown", e2eFloat(s.EstimatedUSD))
	}
	if c.kind == "codex" && !strings.Contains(r.stderr, "$") {
		t.Errorf("sift run's summary line names no cost: %s", r.stderr)
	}
}

func e2eFloat(p *float64) string {
	if p == nil {
		return "null"
	}
	return strconv.FormatFloat(*p, 'f', -1, 64)
}
