package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pricesConfig writes a configuration file with a Prices key and returns
// its path.
func pricesConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPricesList(t *testing.T) {
	t.Parallel()
	conf := pricesConfig(t, "Prices: {Models: {my-model: {Input: 1, Output: 2}}}\n")
	code, out, errs := runSift(t, "prices", "--config", conf)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"catalog   npm:@pydantic/genai-prices 0.1.8 (MIT), published 2026-09-23, snapshot 2026-12-01",
		"sha512-", "PROVIDER", "WRITE 1H",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	rows := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) >= 7 {
			rows[f[0]+" "+f[1]] = f[2:7]
		}
	}
	for key, want := range map[string]string{
		"anthropic claude-opus-4-5": "5 25 0.5 6.25 10",
		"openai gpt-5":              "1.25 10 0.125 1.25 1.25",
		"(sift) qwen3-coder-plus":   "1 5 0.2 1.25 1.25",
		"(override) my-model":       "1 2 1 1 1",
	} {
		if got := strings.Join(rows[key], " "); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if len(rows) < 1000 {
		t.Errorf("only %d rows", len(rows))
	}
	code, out, _ = runSift(t, "prices", "--config", conf, "--json")
	var doc struct {
		Catalog struct{ Source, Version, Date, Integrity string }
		Models  []struct {
			Provider, ID, Source string
			Rates                map[string]json.RawMessage
			Tiers                map[string]json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("exit %d: %v", code, err)
	}
	if doc.Catalog.Source != "npm:@pydantic/genai-prices" || doc.Catalog.Version != "0.1.8" || doc.Catalog.Date == "" ||
		len(doc.Models) < 1000 || doc.Models[0].ID != "my-model" || doc.Models[0].Source != "override" {
		t.Errorf("json: %+v", doc.Catalog)
	}
	for _, m := range doc.Models {
		if m.Provider == "anthropic" && m.ID == "claude-sonnet-4-5" {
			var b bytes.Buffer
			if err := json.Compact(&b, m.Rates["input"]); err != nil || b.String() != `{"base":3,"tiers":[{"start":200000,"price":6}]}` {
				t.Errorf("sonnet input %s", b.String())
			}
		}
		if m.Provider == "github-copilot" && m.ID == "claude-opus-4.8" && m.Tiers["fast"] == nil {
			t.Error("copilot opus 4.8 lacks its fast tier")
		}
	}
}

func TestPricesModels(t *testing.T) {
	t.Parallel()
	conf := pricesConfig(t, "Prices: {Models: {my-model: {Input: 1, Output: 2}}}\n")
	code, out, errs := runSift(t, "prices", "--config", conf, "gpt-5-codex", "anthropic/claude-sonnet-4-5-20250929", "my-model")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"gpt-5-codex\n  charged as   openai/gpt-5 (GPT-5)\n  price from   catalog npm:@pydantic/genai-prices 0.1.8, snapshot 2026-12-01\n  matched      equals \"gpt-5-codex\"\n",
		"  charged as   anthropic/claude-sonnet-4-5 (Claude Sonnet 4.5)\n",
		"  read as      claude-sonnet-4-5 (dropped the provider prefix anthropic/; dropped the date -20250929)\n",
		"  input        3, prompts above 200k: 6\n",
		"  cache write  3.75, prompts above 200k: 7.5 (5 minutes), 6, prompts above 200k: 12 (1 hour)\n",
		"my-model\n  charged as   my-model\n  price from   override in " + conf + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A --pricing file lies over the configuration.
	file := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(file, []byte(`{"models":{"my-model":{"input":7,"output":8}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, out, _ = runSift(t, "prices", "--config", conf, "--pricing", file, "my-model")
	if !strings.Contains(out, "override in "+file) || !strings.Contains(out, "  input        7\n") {
		t.Errorf("--pricing not laid over:\n%s", out)
	}
}

func TestPricesUnknown(t *testing.T) {
	t.Parallel()
	conf := pricesConfig(t, "")
	code, out, errs := runSift(t, "prices", "--config", conf, "claude-opus-9", "gpt-5", "\x1b]0;pwned\x07model")
	if code != 1 || errs != "" {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(out, "claude-opus-9: unknown: no price\n\ngpt-5\n") || !strings.HasSuffix(out, ": unknown: no price\n") {
		t.Errorf("output:\n%s", out)
	}
	if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `\x1b]0;pwned\x07model`) {
		t.Errorf("an escape reached the terminal: %q", out)
	}
	_, out, _ = runSift(t, "prices", "--config", conf, "davinci")
	if out != "davinci: unknown: no price\n  listed at different prices by azure/davinci, openai/davinci: name one (PROVIDER/MODEL)\n" {
		t.Errorf("ambiguous name:\n%s", out)
	}
}

func TestPricesJSON(t *testing.T) {
	t.Parallel()
	conf := pricesConfig(t, "")
	code, out, _ := runSift(t, "prices", "--config", conf, "--json", "us.anthropic.claude-opus-4-5-20251101-v1:0", "\x1bnope")
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || strings.Contains(out, "\x1b") {
		t.Fatalf("output %q", out)
	}
	var a struct {
		Name  string
		Known bool
		Model struct {
			Provider, ID string
			Rates        struct{ Input float64 }
		}
		Match struct {
			Steps        []string
			Rule, Source string
		}
		Catalog struct{ Version string }
	}
	if err := json.Unmarshal([]byte(lines[0]), &a); err != nil {
		t.Fatal(err)
	}
	if !a.Known || a.Model.Provider != "aws" || a.Model.ID != "regional.anthropic.claude-opus-4-5-v1:0" || a.Model.Rates.Input != 5.5 ||
		a.Match.Source != "catalog" || len(a.Match.Steps) != 2 || a.Catalog.Version != "0.1.8" {
		t.Errorf("answer %+v", a)
	}
	if err := json.Unmarshal([]byte(lines[1]), &a); err != nil || a.Known || a.Name != "\x1bnope" {
		t.Errorf("unknown answer %+v, %v", a, err)
	}
}

func TestPricesErrors(t *testing.T) {
	t.Parallel()
	bad := pricesConfig(t, "Prices: {Models: {m: {Input: -1}}}\n")
	code, out, errs := runSift(t, "prices", "--config", bad)
	if code != 2 || out != "" || errs != "sift prices: config "+bad+": Prices.Models.m.Input must not be negative (got -1)\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	conf := pricesConfig(t, "")
	code, _, errs = runSift(t, "prices", "--config", conf, "--pricing", "/nonexistent.json")
	if code != 2 || !strings.Contains(errs, "read price table") || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// TestPricesReachSummaries checks that the configuration's prices and a
// --pricing file in the configuration's form price runs: one mechanism.
func TestPricesReachSummaries(t *testing.T) {
	t.Parallel()
	const stream = "../../testdata/streams/gemini/evolve-run1-write.jsonl" // 13428 input tokens, none cached, no output
	conf := pricesConfig(t, "Prices:\n  Date: 2030-01-01\n  Models:\n    gemini-3-flash-preview: {Input: 1000, Output: 0}\n")
	// sift summary reads a whole configuration file as a --pricing file.
	code, out, errs := runSift(t, "summary", "--json", "--pricing", conf, stream)
	if code != 0 {
		t.Fatalf("summary: exit %d: %s", code, errs)
	}
	var s struct {
		EstimatedUSD *float64
		CostBasis    string
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil || s.EstimatedUSD == nil || *s.EstimatedUSD != 13.428 ||
		!strings.Contains(s.CostBasis, "2030-01-01") {
		t.Errorf("summary cost %v basis %q (%v)", s.EstimatedUSD, s.CostBasis, err)
	}
	// sift import prices with the configuration's Prices key.
	dir := t.TempDir()
	logs, db := filepath.Join(dir, "logs"), filepath.Join(dir, "sift.db")
	data, err := os.ReadFile(stream)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(logs, "wi-1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(logs, "wi-1", "work-1-a1b2c3.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runSift(t, "import", "--db", db, "--logs", logs, "--config", conf); code != 0 {
		t.Fatalf("import: exit %d: %s %s", code, out, errs)
	}
	code, out, errs = runSift(t, "list", "--db", db, "--config", conf, "--json")
	var rows []struct{ EstimatedUSD *float64 }
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 1 || rows[0].EstimatedUSD == nil ||
		*rows[0].EstimatedUSD != 13.428 {
		t.Errorf("list: exit %d %s: %s", code, errs, out)
	}
}
