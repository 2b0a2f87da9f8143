package pricing

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func f(v float64) *float64 { return &v }

func TestOverridesLaidOver(t *testing.T) {
	t.Parallel()
	tb := Default().With(Overrides{Date: "2030-01-01", Models: map[string]Override{
		"claude-sonnet-4-5": {Input: f(1), Output: f(2), CacheWrite: f(0)},
		"gpt-5":             {Input: f(3), Output: f(4), CacheRead: f(0)},
		"my-model": {Input: f(1), Output: f(10), CacheRead: f(0.1),
			Above:  []OverrideBand{{Tokens: 1000, Input: f(2)}, {Tokens: 2000, Output: f(30)}},
			Batch:  &Override{Input: f(0.5), Output: f(5)},
			Source: "our contract"},
	}}, "/etc/sift.yaml")
	if tb.Date != "2030-01-01" {
		t.Errorf("date %q", tb.Date)
	}
	m, mt, ok := tb.Resolve("anthropic/claude-sonnet-4-5-20250929")
	if !ok || mt.Source != FromOverride || mt.File != "/etc/sift.yaml" || m.ID != "claude-sonnet-4-5" {
		t.Fatalf("sonnet: %+v %+v %v", m, mt, ok)
	}
	// CacheWrite 0 and an unset CacheRead both bill as input.
	if usd, _ := m.Cost(Request{CacheWrite: 1e6, CacheRead: 1e6, CacheWrite1h: 1e6}); !near(usd, 3) {
		t.Errorf("sonnet cache cost %v, want 3", usd)
	}
	// gpt-5-codex is a catalog name of gpt-5: the override of gpt-5 prices it.
	m, mt, ok = tb.Resolve("gpt-5-codex")
	if !ok || mt.Source != FromOverride || !strings.Contains(mt.Rule, "of openai/gpt-5") {
		t.Fatalf("gpt-5-codex: %+v %v", mt, ok)
	}
	if usd, _ := m.Cost(Request{Input: 1e6, CacheRead: 1e6, Output: 1e6}); !near(usd, 7) {
		t.Errorf("gpt-5 cost %v, want 7 (free reads)", usd)
	}
	m, mt, ok = tb.Resolve("My-Model")
	if !ok || !strings.Contains(m.Origin, "our contract") || mt.File != "/etc/sift.yaml" {
		t.Fatalf("my-model: %+v %+v %v", m, mt, ok)
	}
	for _, tc := range []struct {
		req  Request
		want float64
	}{
		{Request{Input: 1000, Output: 1000}, (1000*1 + 1000*10) / 1e6},
		{Request{Input: 1500, Output: 1000}, (1500*2 + 1000*10) / 1e6},
		{Request{Input: 1500, CacheRead: 600, Output: 1000}, (1500*2 + 600*0.1 + 1000*30) / 1e6},
		{Request{Input: 1000, Output: 1000, Tier: Batch}, (1000*0.5 + 1000*5) / 1e6},
	} {
		if usd, err := m.Cost(tc.req); err != nil || !near(usd, tc.want) {
			t.Errorf("my-model %+v = %v, %v; want %v", tc.req, usd, err, tc.want)
		}
	}
	if _, err := m.Cost(Request{Tier: Fast}); !errors.Is(err, ErrNoTierPrice) {
		t.Errorf("fast tier: %v", err)
	}
	// A later layer wins; the catalog stays under both.
	tb2 := tb.With(Overrides{Models: map[string]Override{"my-model": {Input: f(9), Output: f(9)}}}, "flag.json")
	if m, mt, _ := tb2.Resolve("my-model"); m.Price().Input != 9 || mt.File != "flag.json" {
		t.Errorf("second layer: %+v %+v", m.Price(), mt)
	}
	if m, mt, _ := tb2.Resolve("claude-opus-4-5"); mt.Source != FromCatalog || m.Price().Input != 5 {
		t.Errorf("catalog under the layers: %+v", mt)
	}
	if _, mt, _ := Default().Resolve("my-model"); mt.Source != "" {
		t.Errorf("Default() changed by With: %+v", mt)
	}
}

func TestOverridesValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		models   map[string]Override
		key, msg string
	}{
		{"negative", map[string]Override{"m": {Input: f(-1), Output: f(1)}}, "Models.m.Input", "must not be negative"},
		{"infinite", map[string]Override{"m": {Input: f(1), Output: f(math.Inf(1))}}, "Models.m.Output", "must be a finite number"},
		{"not a number", map[string]Override{"m": {Input: f(1), CacheRead: f(math.NaN())}}, "Models.m.CacheRead", "must be a finite number"},
		{"no price", map[string]Override{"m": {CacheRead: f(1)}}, "Models.m", "sets neither Input nor Output"},
		{"empty name", map[string]Override{" ": {Input: f(1)}}, "Models", "empty name"},
		{"band at zero", map[string]Override{"m": {Input: f(1), Above: []OverrideBand{{Tokens: 0}}}}, "Models.m.Above[0].Tokens", "must be positive"},
		{"bands out of order", map[string]Override{"m": {Input: f(1), Above: []OverrideBand{{Tokens: 5}, {Tokens: 5}}}}, "Models.m.Above[1].Tokens", "above the band before"},
		{"negative band", map[string]Override{"m": {Input: f(1), Above: []OverrideBand{{Tokens: 5, CacheWrite1h: f(-2)}}}}, "Models.m.Above[0].CacheWrite1h", "must not be negative"},
		{"bad tier", map[string]Override{"m": {Input: f(1), Priority: &Override{Input: f(-1)}}}, "Models.m.Priority.Input", "must not be negative"},
		{"tier in a tier", map[string]Override{"m": {Input: f(1), Flex: &Override{Input: f(1), Fast: &Override{Input: f(1)}}}}, "Models.m.Flex.Fast", "not allowed"},
	}
	for _, tc := range tests {
		err := Overrides{Models: tc.models}.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Key != tc.key || !strings.Contains(fe.Msg, tc.msg) {
			t.Errorf("%s: %v; want %s %s", tc.name, err, tc.key, tc.msg)
		}
	}
	if err := (Overrides{Models: map[string]Override{"m": {Output: f(0)}}}).Validate(); err != nil {
		t.Errorf("a free model refused: %v", err)
	}
}

func TestParseOverrides(t *testing.T) {
	t.Parallel()
	o, err := ParseOverrides([]byte(`{"Source":"s","MODELS":{"x":{"INPUT":1,"output":2,"CacheWrite1h":3,"above":[{"tokens":10,"input":4}],"batch":{"input":0.5}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	x := o.Models["x"]
	if o.Source != "s" || *x.Input != 1 || *x.Output != 2 || *x.CacheWrite1h != 3 || x.Above[0].Tokens != 10 || *x.Batch.Input != 0.5 {
		t.Errorf("parsed %+v", o)
	}
	if _, err := ParseOverrides([]byte(`{"models":{"x":{"input":1,"inptu":2}}}`)); err == nil || !strings.Contains(err.Error(), "inptu") {
		t.Errorf("unknown key: %v", err)
	}
	if _, err := ParseOverrides([]byte(`{"models":{"x":{"input":-1}}}`)); err == nil {
		t.Error("negative price accepted")
	}
}
