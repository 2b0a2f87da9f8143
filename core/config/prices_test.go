package config

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/pricing"
)

func TestPricesKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	writeFile(t, path, `
Prices:
  Source: our contract
  Models:
    claude-sonnet-4-5: {Input: 2.7, Output: 13.5, CacheRead: 0.27, CacheWrite: 3.375, CacheWrite1h: 5.4}
    my-model:
      input: 1             # keys in any case, as old price files wrote them
      OUTPUT: 2
      above: [{tokens: 1000, input: 2}]
      batch: {input: 0.5, output: 1}
`)
	c, err := Resolve(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Prices.Source != "our contract" || len(c.Prices.Models) != 2 {
		t.Fatalf("prices %+v", c.Prices)
	}
	tb := c.PriceTable()
	m, mt, ok := tb.Resolve("anthropic/claude-sonnet-4-5-20250929")
	if !ok || mt.Source != pricing.FromOverride || mt.File != path || m.Price().Input != 2.7 {
		t.Errorf("sonnet: %+v %+v", m.Price(), mt)
	}
	m, _, ok = tb.Resolve("my-model")
	if usd, err := m.Cost(pricing.Request{Input: 2000, Output: 1000, Tier: pricing.Batch}); !ok || err != nil || usd != (2000*0.5+1000*1)/1e6 {
		t.Errorf("my-model batch = %v, %v", usd, err)
	}
	if usd, _ := m.Cost(pricing.Request{Input: 2000}); usd != 2000*2/1e6 {
		t.Errorf("my-model above its band = %v", usd)
	}
	if _, mt, _ := tb.Resolve("claude-opus-4-5"); mt.Source != pricing.FromCatalog {
		t.Errorf("catalog lost: %+v", mt)
	}
	// No Prices key: the catalog as it is.
	if d := Default().PriceTable(); d.Source == "" || d.Date == "" {
		t.Errorf("default table %+v", d)
	}
}

// TestPricesKeyErrors checks that a bad price is one error line naming
// the file and the key, as every other key's.
func TestPricesKeyErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, body, want string }{
		{"negative", "Prices: {Models: {m: {Input: -1, Output: 1}}}", "Prices.Models.m.Input must not be negative (got -1)"},
		{"infinite", "Prices: {Models: {m: {Input: .inf}}}", "Prices.Models.m.Input must be a finite number (got +Inf)"},
		{"not a number", "Prices: {Models: {m: {Input: 1, Output: .nan}}}", "Prices.Models.m.Output must be a finite number"},
		{"no price", "Prices: {Models: {m: {CacheRead: 1}}}", "Prices.Models.m sets neither Input nor Output"},
		// A price at which plausible token counts cost more than a float
		// holds would make every cost of the model +Inf, which no summary
		// can be stored with.
		{"too large", "Prices: {Models: {m: {Input: 1e308}}}", "Prices.Models.m.Input is too large (got 1e+308)"},
		{"too large in a band", "Prices: {Models: {m: {Input: 1, Above: [{Tokens: 1000, Output: 1e300}]}}}",
			"Prices.Models.m.Above[0].Output is too large"},
		{"too large in a tier", "Prices: {Models: {m: {Input: 1, Batch: {Input: 1e297}}}}", "Prices.Models.m.Batch.Input is too large"},
		{"unknown key", "Prices: {Models: {m: {Inptu: 1}}}", `Prices.Models.m: unknown key "Inptu"`},
		{"unknown top key", "Prices: {Model: {m: {Input: 1}}}", `Prices: unknown key "Model"`},
		{"not a number at all", "Prices: {Models: {m: {Input: cheap}}}", "cannot unmarshal"},
		{"band", "Prices: {Models: {m: {Input: 1, Above: [{Tokens: 0}]}}}", "Prices.Models.m.Above[0].Tokens must be positive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			writeFile(t, path, tc.body+"\n")
			_, err := Resolve(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "config "+path+": ") ||
				strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v; want one line naming %s and %q", err, path, tc.want)
			}
		})
	}
	c, _ := Parse([]byte("Prices: {Models: {m: {Input: -1}}}"))
	var ce *Error
	if err := c.Validate(); !errors.As(err, &ce) || ce.Key != "Prices.Models.m.Input" {
		t.Errorf("Validate = %v, want an *Error for Prices.Models.m.Input", err)
	}
}

func TestLoadPrices(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{
		// The JSON price file sift read before the catalog.
		"old.json":  `{"date":"2030-01-01","models":{"gemini-3-flash-preview":{"input":1000,"output":0,"cacheRead":0}}}`,
		"bare.yaml": "Date: 2030-01-01\nModels:\n  gemini-3-flash-preview: {Input: 1000, Output: 0, CacheRead: 0}\n",
		// A whole configuration file: its Prices key is read.
		"config.yaml": "Enabled: true\nPrices:\n  Date: 2030-01-01\n  Models:\n    gemini-3-flash-preview: {Input: 1000, Output: 0, CacheRead: 0}\n",
	} {
		path := filepath.Join(dir, name)
		writeFile(t, path, body)
		o, err := LoadPrices(path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if m := o.Models["gemini-3-flash-preview"]; o.Date != "2030-01-01" || m.Input == nil || *m.Input != 1000 {
			t.Errorf("%s: %+v", name, o)
		}
	}
	bad := filepath.Join(dir, "bad.json")
	writeFile(t, bad, `{"models":{"x":{"input":-1}}}`)
	if _, err := LoadPrices(bad); err == nil || err.Error() != "price table "+bad+": Prices.Models.x.Input must not be negative (got -1)" {
		t.Errorf("bad: %v", err)
	}
	if _, err := LoadPrices(filepath.Join(dir, "missing.json")); err == nil || !strings.HasPrefix(err.Error(), "read price table: ") {
		t.Errorf("missing: %v", err)
	}
	empty := filepath.Join(dir, "empty.yaml")
	writeFile(t, empty, "")
	if _, err := LoadPrices(empty); err == nil {
		t.Error("an empty file read as prices")
	}
}
