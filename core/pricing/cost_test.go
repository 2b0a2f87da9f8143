package pricing

import (
	"errors"
	"math"
	"testing"
	"time"
)

// model resolves a name in the default table or fails the test.
func model(t *testing.T, name string) Model {
	t.Helper()
	m, mt, ok := Default().Resolve(name)
	if !ok {
		t.Fatalf("%s: unknown", name)
	}
	if mt.Source != FromCatalog {
		t.Fatalf("%s: from %s, want the catalog", name, mt.Source)
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestCostRequests(t *testing.T) {
	t.Parallel()
	day := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name, model string
		req         Request
		want        float64
	}{
		// Context-length tiers: the whole request moves with its prompt.
		{"below the 200k band", "claude-sonnet-4-5", Request{Input: 100_000, CacheRead: 50_000, Output: 1000}, 0.33},
		{"above the 200k band", "claude-sonnet-4-5", Request{Input: 150_000, CacheRead: 60_000, Output: 1000}, 0.9585},
		{"cache writes count towards the prompt", "claude-sonnet-4-5", Request{Input: 150_000, CacheWrite: 60_000}, (150_000*6 + 60_000*7.5) / 1e6},
		{"at the band's start", "openai/gpt-5.5", Request{Input: 271_999, Output: 1000}, 1.389995},
		{"one token past the band's start", "openai/gpt-5.5", Request{Input: 272_000, Output: 1000}, 2.765},
		// Cache writes: 5 minutes and 1 hour.
		{"5-minute writes", "claude-opus-4-5", Request{CacheWrite: 1_000_000}, 6.25},
		{"1-hour writes", "claude-opus-4-5", Request{CacheWrite1h: 1_000_000}, 10},
		{"no write price: writes bill as input", "gpt-5", Request{CacheWrite: 1_000_000, CacheWrite1h: 1_000_000}, 2.5},
		{"no read price: reads bill as input", "kimi-k2", Request{CacheRead: 1_000_000}, 0.57},
		{"no 1-hour price: bills as a write", "copilot/claude-opus-4.8", Request{CacheWrite1h: 1_000_000}, 6.25},
		// Dated price periods: the 1M context became flat on 2026-03-13.
		{"before a price change", "claude-opus-4-6", Request{Input: 250_000, At: day("2026-03-01T12:00:00Z")}, 2.5},
		{"on a price change", "claude-opus-4-6", Request{Input: 250_000, At: day("2026-03-13T00:00:00Z")}, 1.25},
		{"no time: the catalog's date", "claude-opus-4-6", Request{Input: 250_000}, 1.25},
		// Daily windows.
		{"in the daily window", "deepseek-chat", Request{Input: 1_000_000, At: day("2026-06-01T10:00:00Z")}, 0.27},
		{"outside the daily window", "deepseek-chat", Request{Input: 1_000_000, At: day("2026-06-01T20:00:00Z")}, 0.135},
		// Service tiers the provider lists.
		{"fast tier", "github-copilot/claude-opus-4.8", Request{Input: 1_000_000, Tier: Fast}, 10},
		{"standard tier", "github-copilot/claude-opus-4.8", Request{Input: 1_000_000}, 5},
		{"batch tier", "openrouter/openai/gpt-6-sol", Request{Input: 100_000, Output: 100_000, Tier: Batch}, 0.6},
		{"batch tier above its band", "openrouter/openai/gpt-6-sol", Request{Input: 300_000, Tier: Batch}, 0.6},
		{"negative counts are nothing", "gpt-5", Request{Input: -5, Output: 1_000_000}, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := model(t, tc.model).Cost(tc.req)
			if err != nil || !near(got, tc.want) {
				t.Errorf("Cost = %.9f, %v; want %.9f", got, err, tc.want)
			}
		})
	}
}

func TestCostUnpricedTier(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		model string
		tier  ServiceTier
	}{{"claude-opus-4-5", Fast}, {"claude-opus-4-5", Batch}, {"github-copilot/claude-opus-4.8", Batch}, {"gpt-5", Priority}, {"gpt-5", Flex}} {
		if usd, err := model(t, tc.model).Cost(Request{Input: 1000, Tier: tc.tier}); !errors.Is(err, ErrNoTierPrice) {
			t.Errorf("%s at %s = %v, %v; want ErrNoTierPrice", tc.model, tc.tier, usd, err)
		}
	}
	if got := model(t, "github-copilot/claude-opus-4.8").ServiceTiers(); len(got) != 1 || got[0] != Fast {
		t.Errorf("service tiers = %v, want [fast]", got)
	}
	if got := model(t, "openrouter/openai/gpt-6-sol").ServiceTiers(); len(got) != 1 || got[0] != Batch {
		t.Errorf("service tiers = %v, want [batch]", got)
	}
}

func TestParseServiceTier(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]ServiceTier{
		"": Standard, "standard": Standard, "Default": Standard, "auto": Standard, "on_demand": Standard,
		"batch": Batch, "flex": Flex, " priority ": Priority, "FAST": Fast,
	} {
		if got, err := ParseServiceTier(in); err != nil || got != want {
			t.Errorf("ParseServiceTier(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseServiceTier("scale"); err == nil {
		t.Error("scale accepted")
	}
	if Standard.String() != "standard" || Fast.String() != "fast" {
		t.Errorf("names %q %q", Standard, Fast)
	}
}

func TestDailyWindow(t *testing.T) {
	t.Parallel()
	d, err := daily([]string{"23:00:00Z", "09:30:00+08:00"}) // 23:00–01:30 UTC
	if err != nil {
		t.Fatal(err)
	}
	at := func(h, m int) time.Time { return time.Date(2026, 1, 1, h, m, 0, 0, time.UTC) }
	for _, tc := range []struct {
		t    time.Time
		want bool
	}{{at(22, 59), false}, {at(23, 0), true}, {at(0, 30), true}, {at(1, 29), true}, {at(1, 30), false}} {
		if got := d.contains(tc.t); got != tc.want {
			t.Errorf("%s in %s = %v", tc.t.Format("15:04"), d, got)
		}
	}
	if _, err := daily([]string{"25:00:00Z", "01:00:00Z"}); err == nil {
		t.Error("25:00 accepted")
	}
}

func TestModelPrice(t *testing.T) {
	t.Parallel()
	// The first band, standard tier, on the catalog's date.
	p := model(t, "claude-sonnet-4-5-20250929").Price()
	want := Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75, CacheWrite1h: 6}
	if p.Source == "" {
		t.Error("no source")
	}
	p.Source = ""
	if p != want {
		t.Errorf("price = %+v, want %+v", p, want)
	}
}
