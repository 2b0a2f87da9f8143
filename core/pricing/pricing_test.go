package pricing

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestDefaultTable(t *testing.T) {
	t.Parallel()
	if _, err := parseCatalog(embeddedCatalog, embeddedSupplement); err != nil {
		t.Fatalf("embedded catalog: %v", err)
	}
	tb := Default()
	if tb.Source == "" || tb.Date == "" {
		t.Errorf("table has no source or date: %+v", tb)
	}
	// Every model named in testdata/streams must be priced.
	for _, m := range []string{
		"claude-opus-4-5-20251101", "claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001",
		"gpt-5-codex", "codex-mini-latest", "gemini-3-flash-preview", "dashscope/qwen3-coder-plus",
		"kimi-k2-thinking", "claude-opus-5-5", "gemini-2.5-pro",
	} {
		p, _, ok := tb.Lookup(m)
		if !ok {
			t.Errorf("no price for %s", m)
			continue
		}
		if p.Input <= 0 || p.Output <= 0 || p.Source == "" {
			t.Errorf("%s: incomplete price %+v", m, p)
		}
	}
}

func TestLookupNormalises(t *testing.T) {
	t.Parallel()
	tb := Default()
	tests := []struct{ name, model, want string }{
		{"date suffix", "claude-opus-4-5-20251101", "claude-opus-4-5"},
		{"dotted version", "claude-haiku-4.5", "claude-haiku-4-5"},
		{"provider prefix", "dashscope/qwen3-coder-plus", "qwen3-coder-plus"},
		{"context suffix", "claude-sonnet-4-5[1m]", "claude-sonnet-4-5"},
		{"longest prefix", "claude-opus-4-5-thinking", "claude-opus-4-5"},
		// The catalog lists gpt-5-codex as a name of gpt-5 (one price).
		{"a name the catalog lists for another model", "gpt-5-codex", "gpt-5"},
		{"iso date suffix", "gpt-5-2025-08-07", "gpt-5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, key, ok := tb.Lookup(tc.model)
			if !ok || key != tc.want {
				t.Errorf("Lookup(%q) = %q, %v; want %q", tc.model, key, ok, tc.want)
			}
		})
	}
	for _, m := range []string{"", "Auto", "claude", "claude-opus-4-9", "gpt-5.1-codex-ultra", "claude-opus-4-"} {
		if _, key, ok := tb.Lookup(m); ok {
			t.Errorf("Lookup(%q) matched %q", m, key)
		}
	}
	// The hand-typed table lacked these; the catalog prices them.
	for m, want := range map[string]string{"gpt-4o": "gpt-4o", "claude-opus-4-7": "claude-opus-4-7", "gpt-5.1-codex": "gpt-5.1"} {
		if _, key, ok := tb.Lookup(m); !ok || key != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", m, key, ok, want)
		}
	}
}

func TestCost(t *testing.T) {
	t.Parallel()
	p := Price{Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25}
	// The claude evolve-2.1.7-run1 result: 1 uncached, 12999 written,
	// 40729 read, 109 out; the harness says 0.10433825.
	got := p.Cost(Usage{Input: 1 + 12999 + 40729, Output: 109, CacheRead: 40729, CacheWrite: 12999})
	if math.Abs(got-0.10433825) > 1e-9 {
		t.Errorf("cost = %.8f, want 0.10433825", got)
	}
	// A zero cache-write price bills writes as input.
	q := Price{Input: 1, Output: 2}
	if got := q.Cost(Usage{Input: 1_000_000, CacheWrite: 500_000}); math.Abs(got-1) > 1e-12 {
		t.Errorf("cost = %v, want 1", got)
	}
}

func TestLoadOverride(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "p.json")
	if err := os.WriteFile(path, []byte(`{"date":"2030-01-01","models":{"gpt-5-codex":{"input":2,"output":20,"cacheRead":0.2},"my-model":{"input":1,"output":1,"cacheRead":1}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tb, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if p, _, _ := tb.Lookup("gpt-5-codex"); p.Input != 2 {
		t.Errorf("override not applied: %+v", p)
	}
	if _, _, ok := tb.Lookup("my-model"); !ok {
		t.Error("added model missing")
	}
	if _, _, ok := tb.Lookup("claude-opus-4-5"); !ok {
		t.Error("defaults lost")
	}
	if tb.Date != "2030-01-01" {
		t.Errorf("date = %q", tb.Date)
	}
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(bad, []byte(`{"models":{"x":{"input":-1}}}`), 0o600)
	if _, err := Load(bad); err == nil {
		t.Error("negative price accepted")
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}
