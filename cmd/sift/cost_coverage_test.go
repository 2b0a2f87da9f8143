package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// uncosted says why a run shows no cost: the summary's costBasis when it
// names one, else that the stream reports no token usage at all.
func uncosted(s *summary.Summary) string {
	switch {
	case s.EstimatedUSD != nil:
		return ""
	case s.InputTokens == nil && s.OutputTokens == nil:
		return "no token usage in the stream"
	case s.CostBasis != "":
		return s.CostBasis
	}
	return "unknown (no reason given)"
}

// costlessStreams are the recorded streams that show no cost, and why.
// None of them is a run whose model its harness knew and the stream (or
// a recorded invocation) names with tokens to price: codex exec --json
// prints no model and these captures were not made by sift run, so no
// invocation recorded one; cursor's "Auto" is a router, not a model; the
// rest report no tokens.
func costlessStreams() map[string]string {
	return map[string]string{
		"codex-legacy/vibekanban-legacy-msg-missing-api-key.jsonl":  "no token usage in the stream",
		"codex-legacy/vibekanban-legacy-msg-reasoning-exec.jsonl":   "no token usage in the stream",
		"codex/e2e-codex-0.171.0-model-error.jsonl":                 "no token usage in the stream",
		"codex/e2e-codex-0.171.0-scripted.jsonl":                    "no model named",
		"codex/evolve-run1-reasoning-file-change.jsonl":             "no model named",
		"codex/evolve-run2-resumed-todo-commands.jsonl":             "no model named",
		"codex/ortus-0.144.6-stubmodel-reconnect-turn-failed.jsonl": "no token usage in the stream",
		"codex/takopi-banteg-commands-reasoning.jsonl":              "no model named",
		"codex/vincent-0.147.0-reasoning.jsonl":                     "no model named",
		"codex/vincent-turn-failed-model-400.jsonl":                 "no token usage in the stream",
		"cursor/vincent-2026.08.11-edit-shell-tools.jsonl":          "no price for Auto",
		"droid/vibekanban-edits-and-execution.jsonl":                "no token usage in the stream",
		"droid/vibekanban-insufficient-perms.jsonl":                 "no token usage in the stream",
		"droid/vibekanban-offline-no-reply.jsonl":                   "no token usage in the stream",
		"gemini/evolve-background-truncated-no-result.jsonl":        "no token usage in the stream",
		"opencode/e2e-opencode-1.18.33-scripted.jsonl":              "harness reported $0 for 4620 tokens; no model named",
		"opencode/ortus-1.18.27-three-runs-mcp.jsonl":               "harness reported $0 for 68724 tokens; no model named",
		"opencode/takopi-bash-two-steps.jsonl":                      "harness reported $0 for 21882 tokens; no model named",
	}
}

// costlessDemo are the demo's runs that show no cost, and why. The demo
// records each run's invocation as sift run would have (demoRuns: the
// model asked for, the prompt, the folder), so every run names a model;
// these four are copies of streams above that report no token usage at
// all (droid's October 2025 builds print none, a run cut off before its
// result line and one that died before its first turn have none), and
// nothing prices a run without its tokens.
func costlessDemo() map[string]string {
	return map[string]string{
		"ENG-398/rework-1-9a8b7c.jsonl": "no token usage in the stream",
		"ENG-398/work-1-5c6d7e.jsonl":   "no token usage in the stream",
		"ENG-401/work-1-4d5e6f.jsonl":   "no token usage in the stream",
		"ENG-420/work-1-6a7b8c.jsonl":   "no token usage in the stream",
	}
}

// TestEveryRunWithAModelShowsACost walks every recorded stream of
// testdata/streams (with its harness declared, as sift run records it)
// and every run of the demo store, and lists the ones without a cost with
// the reason; the list must be exactly the one above, so that a run that
// loses its cost, or gains one, is seen. Every demo run names a model. A run whose stream names a model
// and reports tokens always has a cost unless the catalog lacks the model.
func TestEveryRunWithAModelShowsACost(t *testing.T) {
	t.Parallel()
	t.Run("testdata/streams", func(t *testing.T) {
		t.Parallel()
		paths, err := filepath.Glob("../../testdata/streams/*/*")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, p := range paths {
			if strings.HasSuffix(p, ".md") {
				continue
			}
			agent := filepath.Base(filepath.Dir(p))
			if agent == "codex-legacy" {
				agent = "codex"
			}
			s, _, err := ingest.AnalyzeFile(p, summary.Options{Agent: agent, NoReviewEvents: true})
			if err != nil {
				t.Fatal(err)
			}
			rel := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(p)), filepath.Base(p)))
			if why := uncosted(s); why != "" {
				got[rel] = why
				t.Logf("no cost: %-60s %s", rel, why)
			}
			checkNamedModelPriced(t, rel, s)
		}
		compareCostless(t, got, costlessStreams())
	})
	t.Run("demo", func(t *testing.T) {
		t.Parallel()
		st := demoStore(t)
		p, err := st.ListSessions(context.Background(), review.Query{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Sessions) != len(demoRuns()) {
			t.Fatalf("%d demo sessions, want %d", len(p.Sessions), len(demoRuns()))
		}
		got := map[string]string{}
		for _, sess := range p.Sessions {
			s := sess.Summary
			rel := s.WorkItemID + "/" + s.FileName
			if s.Model == "" {
				t.Errorf("%s (%s) names no model: its invocation record should", rel, s.AgentKind)
			}
			if why := uncosted(&s); why != "" {
				got[rel] = why
				t.Logf("no cost: %-40s %-8s %s", rel, s.AgentKind, why)
			}
			checkNamedModelPriced(t, rel, &s)
		}
		compareCostless(t, got, costlessDemo())
	})
}

// checkNamedModelPriced fails a run that names a model the catalog
// prices, reports tokens, and still has no cost.
func checkNamedModelPriced(t *testing.T, rel string, s *summary.Summary) {
	t.Helper()
	if s.EstimatedUSD != nil || s.Model == "" || s.InputTokens == nil && s.OutputTokens == nil {
		return
	}
	if strings.HasPrefix(s.CostBasis, "no price for") {
		return
	}
	t.Errorf("%s names model %q and reports tokens but has no cost: %s", rel, s.Model, s.CostBasis)
}

func compareCostless(t *testing.T, got, want map[string]string) {
	t.Helper()
	keys := slices.Sorted(func(yield func(string) bool) {
		seen := map[string]bool{}
		for _, m := range []map[string]string{got, want} {
			for k := range m {
				if !seen[k] {
					seen[k] = true
					if !yield(k) {
						return
					}
				}
			}
		}
	})
	for _, k := range keys {
		if got[k] != want[k] {
			t.Errorf("%s: no-cost reason %q, want %q", k, got[k], want[k])
		}
	}
	if os.Getenv("SIFT_COST_LIST") != "" {
		for _, k := range keys {
			t.Logf("| %s | %s |", k, got[k])
		}
	}
}
