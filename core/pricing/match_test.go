package pricing

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/pricing/internal/snapshot"
)

func TestResolveShapes(t *testing.T) {
	t.Parallel()
	tb := Default()
	tests := []struct {
		name, model, provider, id string
		// step is a substring of one of Match.Steps ("" for none).
		step   string
		family bool
		source Source
	}{
		{"bare", "claude-sonnet-4-5", "anthropic", "claude-sonnet-4-5", "", false, FromCatalog},
		{"case", "CLAUDE-Sonnet-4-5", "anthropic", "claude-sonnet-4-5", "", false, FromCatalog},
		{"dated", "claude-sonnet-4-5-20250929", "anthropic", "claude-sonnet-4-5", "date -20250929", false, FromCatalog},
		{"dotted and dated", "claude-sonnet-4.5-20250929", "anthropic", "claude-sonnet-4-5", "date -20250929", false, FromCatalog},
		{"dated, an older family", "claude-sonnet-4-20250514", "anthropic", "claude-sonnet-4-0", "date", false, FromCatalog},
		{"iso date", "gpt-5-2025-08-07", "openai", "gpt-5", "", false, FromCatalog},
		{"latest", "claude-opus-4-latest", "anthropic", "claude-opus-4-0", "-latest", false, FromCatalog},
		{"latest as listed", "codex-mini-latest", "openai", "codex-mini", "", false, FromCatalog},
		{"context suffix", "claude-sonnet-4-5[1m]", "anthropic", "claude-sonnet-4-5", "dropped [1m]", false, FromCatalog},
		{"context suffix and date", "claude-opus-4-5-20251101[1m]", "anthropic", "claude-opus-4-5", "date", false, FromCatalog},
		{"variant word", "claude-opus-4-5-thinking", "anthropic", "claude-opus-4-5", "", true, FromCatalog},
		{"preview of a family", "gemini-2.5-pro-preview-06-05", "google", "gemini-2.5-pro", "", true, FromCatalog},
		{"dated preview of a family", "gemini-2.5-flash-lite-preview-09-2025", "google", "gemini-2.5-flash-lite", "", true, FromCatalog},
		{"excluded from a family", "gemini-2.5-pro-preview-tts", "google", "gemini-2.5-pro-tts", "", false, FromCatalog},
		{"dots as dashes", "kimi-k2-5", "moonshotai", "kimi-k2.5", "dots as dashes", false, FromCatalog},
		{"dashes as dots", "claude-haiku-4.5", "anthropic", "claude-haiku-4-5", "", false, FromCatalog},
		{"anthropic prefix", "anthropic/claude-sonnet-4.5", "anthropic", "claude-sonnet-4-5", "provider prefix anthropic/", false, FromCatalog},
		{"openai prefix", "openai/gpt-5", "openai", "gpt-5", "provider prefix openai/", false, FromCatalog},
		{"gemini api prefix", "models/gemini-3-flash-preview", "google", "gemini-3-flash-preview", "models/", false, FromCatalog},
		{"google prefix", "google/gemini-2.5-pro", "google", "gemini-2.5-pro", "google/", false, FromCatalog},
		{"gemini prefix", "gemini/gemini-2.5-flash", "google", "gemini-2.5-flash", "gemini/", false, FromCatalog},
		{"provider alias", "xai/grok-4", "x-ai", "grok-4-0709", "xai/", false, FromCatalog},
		{"fallback provider", "azure/gpt-5", "openai", "gpt-5", "azure/", false, FromCatalog},
		{"router and maker", "openrouter/anthropic/claude-opus-4.6", "openrouter", "anthropic/claude-opus-4.6", "openrouter/", false, FromCatalog},
		{"router id", "qwen/qwen3-coder-plus", "openrouter", "qwen/qwen3-coder-plus", "", false, FromCatalog},
		{"unknown route prefix", "dashscope/qwen3-coder-plus", "", "qwen3-coder-plus", "route prefix dashscope/", false, FromSupplement},
		{"bedrock in region", "anthropic.claude-sonnet-4-5-20250929-v1:0", "aws", "regional.anthropic.claude-sonnet-4-5-20250929-v1:0", "Bedrock version -v1:0", false, FromCatalog},
		{"bedrock us profile", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "aws", "regional.anthropic.claude-sonnet-4-5-20250929-v1:0", "", false, FromCatalog},
		{"bedrock eu profile", "eu.anthropic.claude-opus-4-8-v1:0", "aws", "regional.anthropic.claude-opus-4-8-v1:0", "", false, FromCatalog},
		{"bedrock global profile", "global.anthropic.claude-opus-4-5-20251101-v1:0", "aws", "global.anthropic.claude-opus-4-5-v1:0", "date", false, FromCatalog},
		{"bedrock prefix", "bedrock/us.anthropic.claude-opus-4-5-20251101-v1:0", "aws", "regional.anthropic.claude-opus-4-5-v1:0", "bedrock/", false, FromCatalog},
		{"vertex version", "claude-sonnet-4-5@20250929", "google", "claude-sonnet-4-5", "Vertex version @20250929", false, FromCatalog},
		{"vertex prefix", "vertex_ai/claude-opus-4-6@default", "google", "claude-opus-4-6", "vertex_ai/", false, FromCatalog},
		{"claimed by regex", "o3", "openai", "o3", "", false, FromCatalog},
		{"listed by one unclaiming provider", "llama-3.3-70b-versatile", "groq", "llama-3.3-70b-versatile", "", false, FromCatalog},
		{"regex name", "composer-2.5[fast=true]", "cursor", "composer-2.5-fast", "", false, FromCatalog},
		{"copilot", "github-copilot/claude-opus-4.8", "github-copilot", "claude-opus-4.8", "", false, FromCatalog},
		{"supplement", "claude-sonnet-5-5", "", "claude-sonnet-5-5", "", false, FromSupplement},
		{"supplement, dated", "claude-haiku-5-5-20261001", "", "claude-haiku-5-5", "date", false, FromSupplement},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, mt, ok := tb.Resolve(tc.model)
			if !ok {
				t.Fatalf("Resolve(%q): unknown", tc.model)
			}
			if m.Provider != tc.provider || m.ID != tc.id || mt.Family != tc.family || mt.Source != tc.source {
				t.Errorf("Resolve(%q) = %s/%s family %v source %s; want %s/%s family %v source %s (%+v)",
					tc.model, m.Provider, m.ID, mt.Family, mt.Source, tc.provider, tc.id, tc.family, tc.source, mt)
			}
			if tc.step != "" && !slices.ContainsFunc(mt.Steps, func(s string) bool { return strings.Contains(s, tc.step) }) {
				t.Errorf("Resolve(%q) steps %q lack %q", tc.model, mt.Steps, tc.step)
			}
			if mt.Name != tc.model || mt.Form == "" || mt.Rule == "" || (mt.Source == FromCatalog && mt.Via == "") {
				t.Errorf("Resolve(%q): incomplete match %+v", tc.model, mt)
			}
		})
	}
}

// TestResolveNearMisses pins names that look like a known model but are
// not one: each must stay unknown, never priced as its neighbour.
func TestResolveNearMisses(t *testing.T) {
	t.Parallel()
	tb := Default()
	for _, name := range []string{
		"", "  ", "Auto", "<synthetic>", "claude", "claude-opus-4-",
		"claude-opus-4-9",   // a version past the last known
		"claude-opus-4-10",  // not claude-opus-4-1
		"claude-sonnet-5-6", // not claude-sonnet-5
		"gpt-5.9", "gpt-6",  // OpenAI names are exact lists
		"gpt-5-codex-ultra",                 // not a family: gpt-5 lists its names
		"kimi-k2.5x",                        // no separator
		"gemini-2.5-pro2",                   // no separator
		"anthropic/claude-opus-9",           // a named provider that lacks it
		"us.anthropic.claude-opus-4-9-v1:0", // Bedrock lacks it
		"claude-opus-4-5@",                  // an empty Vertex version is not a model
		"davinci",                           // two providers, two prices, none named
	} {
		if m, mt, ok := tb.Resolve(name); ok {
			t.Errorf("Resolve(%q) = %s/%s by %s (%v); want unknown", name, m.Provider, m.ID, mt.Rule, mt.Steps)
		}
	}
	_, mt, _ := tb.Resolve("davinci")
	if want := []string{"azure/davinci", "openai/davinci"}; !slices.Equal(mt.Candidates, want) {
		t.Errorf("davinci candidates = %q, want %q", mt.Candidates, want)
	}
	if m, _, ok := tb.Resolve("openai/davinci"); !ok || m.Provider != "openai" {
		t.Errorf("openai/davinci = %s/%s, %v", m.Provider, m.ID, ok)
	}
}

func TestRuleLevels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rule snapshot.Match
		name string
		md   mode
		want level
	}{
		{snapshot.Match{StartsWith: "claude-opus-4-5"}, "claude-opus-4-5", guarded, exact},
		{snapshot.Match{StartsWith: "claude-opus-4-5"}, "claude-opus-4-5-thinking", guarded, family},
		{snapshot.Match{StartsWith: "claude-opus-4-5"}, "claude-opus-4-5:free", guarded, family},
		{snapshot.Match{StartsWith: "claude-opus-4-5"}, "claude-opus-4-5-1", guarded, miss},
		{snapshot.Match{StartsWith: "claude-opus-4-5"}, "claude-opus-4-5.1", guarded, miss},
		{snapshot.Match{StartsWith: "claude-opus-4-5"}, "claude-opus-4-50", guarded, miss},
		{snapshot.Match{StartsWith: "claude-opus-4-5"}, "claude-opus-4-50", plain, exact},
		{snapshot.Match{StartsWith: "gemini-2.5-pro-preview"}, "gemini-2.5-pro-preview-06-05", guarded, family},
		{snapshot.Match{StartsWith: "gpt-5-nano-"}, "gpt-5-nano-2025", guarded, family},
		{snapshot.Match{EndsWith: "claude-fable-5"}, "vertex.claude-fable-5", guarded, family},
		{snapshot.Match{EndsWith: "claude-fable-5"}, "xclaude-fable-5", guarded, miss},
		{snapshot.Match{Contains: "claude-3-opus"}, "us.claude-3-opus-v2", guarded, family},
		{snapshot.Match{Contains: "claude-opus-4-1"}, "claude-opus-4-10", guarded, miss},
		{snapshot.Match{Contains: "claude-opus-4-1"}, "claude-opus-4-10", plain, exact},
		{snapshot.Match{Equals: "gpt-5"}, "gpt-5-mini", guarded, miss},
		{snapshot.Match{Regex: `^gpt-5-\d{8}$`}, "gpt-5-20250101", guarded, exact},
		{snapshot.Match{Regex: `^gpt-5-\d{8}$`}, "gpt-5-20250101", folded, miss},
		{snapshot.Match{Or: []snapshot.Match{{Equals: "a-1"}, {StartsWith: "a-1"}}}, "a-1-b", guarded, family},
		{snapshot.Match{And: []snapshot.Match{{StartsWith: "gemini-2.5-pro"}, {Not: &snapshot.Match{Regex: `-tts(?:$|-)`}}}}, "gemini-2.5-pro-tts", guarded, miss},
		{snapshot.Match{And: []snapshot.Match{{StartsWith: "gemini-2.5-pro"}, {Not: &snapshot.Match{Regex: `-tts(?:$|-)`}}}}, "gemini-2.5-pro", guarded, exact},
		{snapshot.Match{StartsWith: "kimi-k2.5"}, "kimi-k2-5", folded, exact},
	}
	for _, tc := range tests {
		r, err := compile(tc.rule)
		if err != nil {
			t.Fatal(err)
		}
		name := tc.name
		if tc.md == folded {
			name = foldName(name)
		}
		if got, _ := r.test(name, tc.md); got != tc.want {
			t.Errorf("%s on %q (mode %d) = %d, want %d", r.String(), tc.name, tc.md, got, tc.want)
		}
	}
	if _, err := compile(snapshot.Match{Equals: "a", StartsWith: "b"}); err == nil {
		t.Error("a rule with two fields compiled")
	}
	if _, err := compile(snapshot.Match{Regex: "(?!x)"}); err == nil {
		t.Error("a look-ahead compiled")
	}
}
