package pricing

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentsift/sift/core/pricing/internal/snapshot"
)

// Rate is a price in USD per million tokens with its context-length
// tiers.
type Rate struct {
	// Base is the price of requests no band applies to.
	Base float64
	// Above are the bands in ascending order of Tokens.
	Above []Band
}

// Band is the price of requests whose prompt is above Tokens tokens. It
// applies to the whole request, as providers bill long-context prompts.
type Band struct {
	Tokens int64
	Price  float64
}

// At returns the price of a request whose prompt is prompt tokens (input
// of every kind: uncached, cache reads and cache writes).
func (r Rate) At(prompt int64) float64 {
	p := r.Base
	for _, b := range r.Above {
		if prompt > b.Tokens {
			p = b.Price
		}
	}
	return p
}

// MarshalJSON writes a rate as the catalog does: a number, or
// {"base": …, "tiers": [{"start": tokens, "price": …}]}.
func (r Rate) MarshalJSON() ([]byte, error) {
	s := snapshot.Rate{Base: r.Base}
	for _, b := range r.Above {
		s.Tiers = append(s.Tiers, snapshot.Tier{Start: b.Tokens, Price: b.Price})
	}
	return json.Marshal(s)
}

// Rates are one model's rates in one price period and service tier.
// Every rate is set: a rate the price list lacks is billed as its parent,
// a 1-hour cache write as a cache write, a cache read or write as input.
type Rates struct {
	Input        Rate `json:"input"`
	Output       Rate `json:"output"`
	CacheRead    Rate `json:"cacheRead"`
	CacheWrite   Rate `json:"cacheWrite"`
	CacheWrite1h Rate `json:"cacheWrite1h"`
}

// Cost returns the cost of a request at these rates, in USD.
func (rs Rates) Cost(r Request) float64 {
	p := r.Prompt()
	n := func(v int64) float64 { return float64(max(v, 0)) }
	return (n(r.Input)*rs.Input.At(p) + n(r.CacheRead)*rs.CacheRead.At(p) +
		n(r.CacheWrite)*rs.CacheWrite.At(p) + n(r.CacheWrite1h)*rs.CacheWrite1h.At(p) +
		n(r.Output)*rs.Output.At(p)) / 1e6
}

// Period is a model's rates over a span of time: from a day on, or in a
// daily window (an off-peak discount), or always.
type Period struct {
	// Since is the first day (UTC) the rates apply; zero means always.
	Since time.Time
	// Daily, when set, limits the rates to a window of each UTC day.
	Daily *Daily
	Rates Rates
}

// Daily is a window of the UTC day, in seconds since midnight. A window
// whose To is before its From runs past midnight.
type Daily struct {
	From, To int
}

// contains reports whether t falls in the window.
func (d Daily) contains(t time.Time) bool {
	t = t.UTC()
	n := t.Hour()*3600 + t.Minute()*60 + t.Second()
	if d.To < d.From {
		return n >= d.From || n < d.To
	}
	return n >= d.From && n < d.To
}

// String returns the window as "00:30–16:30 UTC".
func (d Daily) String() string {
	f := func(s int) string { return fmt.Sprintf("%02d:%02d", s/3600, s%3600/60) }
	return f(d.From) + "–" + f(d.To) + " UTC"
}

// ServiceTier is the service level a request was billed at. The zero
// value is Standard.
type ServiceTier string

// The service tiers a price list may name.
const (
	Standard ServiceTier = ""
	Batch    ServiceTier = "batch"
	Priority ServiceTier = "priority"
	Flex     ServiceTier = "flex"
	Fast     ServiceTier = "fast"
)

// otherTiers returns the tiers other than Standard, in display order.
func otherTiers() []ServiceTier { return []ServiceTier{Batch, Flex, Priority, Fast} }

// String returns the tier's name, "standard" for Standard.
func (s ServiceTier) String() string {
	if s == Standard {
		return "standard"
	}
	return string(s)
}

// ParseServiceTier reads a tier as harnesses and APIs spell it:
// "standard", "default", "auto" and "on_demand" are Standard (as is "");
// "batch", "flex", "priority" and "fast" are themselves.
func ParseServiceTier(s string) (ServiceTier, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "", "standard", "default", "auto", "on_demand", "on-demand":
		return Standard, nil
	case "batch", "flex", "priority", "fast":
		return ServiceTier(v), nil
	default:
		return Standard, fmt.Errorf("unknown service tier %q", s)
	}
}

// ErrNoTierPrice is returned for a service tier a model has no price
// for: sift does not guess a batch discount or a priority premium.
var ErrNoTierPrice = errors.New("no price for this service tier")

// Request is the token usage of one model request.
type Request struct {
	// Input is the uncached prompt tokens.
	Input int64
	// CacheRead is the prompt tokens read from the cache.
	CacheRead int64
	// CacheWrite and CacheWrite1h are the prompt tokens written to the
	// cache with a 5-minute and a 1-hour lifetime.
	CacheWrite, CacheWrite1h int64
	// Output is the completion tokens, reasoning included.
	Output int64
	// Tier is the service tier the request was billed at.
	Tier ServiceTier
	// At is when the request was made; zero means the rates in force
	// on the price table's date, outside any daily window.
	At time.Time
}

// Prompt returns the request's prompt size, which chooses its
// context-length band: input of every kind.
func (r Request) Prompt() int64 {
	return max(r.Input, 0) + max(r.CacheRead, 0) + max(r.CacheWrite, 0) + max(r.CacheWrite1h, 0)
}

// Model is one model's price list and where it comes from.
type Model struct {
	// ID is the model's name in its price list (the catalog's id).
	ID string
	// Name is its display name, when the catalog has one.
	Name string
	// Provider is the catalog provider selling it; empty for a
	// configured price.
	Provider string
	// Context is the context window in tokens, when known.
	Context int64
	// Source says which list the price is from; Origin says more: the
	// supplement entry's reference or the override's file.
	Source Source
	Origin string

	periods []Period
	tiers   map[ServiceTier][]Period
	// asOf is the day whose rates a request without a time pays.
	asOf time.Time
}

// Periods returns the model's standard-tier price periods, in the order
// they are tried last to first.
func (m Model) Periods() []Period { return slices.Clone(m.periods) }

// ServiceTiers returns the service tiers other than Standard the model
// has a price for.
func (m Model) ServiceTiers() []ServiceTier {
	var out []ServiceTier
	for _, s := range otherTiers() {
		if _, ok := m.tiers[s]; ok {
			out = append(out, s)
		}
	}
	return out
}

// Rates returns the rates a request at time at (zero: the table's date)
// and service tier pays.
func (m Model) Rates(at time.Time, tier ServiceTier) (Rates, error) {
	ps := m.periods
	if tier != Standard {
		var ok bool
		if ps, ok = m.tiers[tier]; !ok {
			return Rates{}, fmt.Errorf("%s, %s tier: %w", m.ID, tier, ErrNoTierPrice)
		}
	}
	if len(ps) == 0 {
		return Rates{}, fmt.Errorf("%s: no price periods", m.ID)
	}
	return pick(ps, at, m.asOf).Rates, nil
}

// Cost returns what a request costs at this model's price, in USD.
func (m Model) Cost(r Request) (float64, error) {
	rs, err := m.Rates(r.At, r.Tier)
	if err != nil {
		return 0, err
	}
	return rs.Cost(r), nil
}

// Price returns the model's first-band standard rates in force on the
// table's date, in the form today's callers use.
func (m Model) Price() Price {
	rs, _ := m.Rates(time.Time{}, Standard)
	return Price{Input: rs.Input.Base, Output: rs.Output.Base, CacheRead: rs.CacheRead.Base,
		CacheWrite: rs.CacheWrite.Base, CacheWrite1h: rs.CacheWrite1h.Base, Source: m.Origin}
}

// pick returns the period that applies at t, as the catalog chooses: the
// last whose constraint holds, else the first. A zero t is the day asOf,
// where no daily window holds.
func pick(ps []Period, t, asOf time.Time) Period {
	clock := !t.IsZero()
	if !clock {
		t = asOf
	}
	for i := len(ps) - 1; i >= 0; i-- {
		switch p := ps[i]; {
		case p.Daily != nil:
			if clock && p.Daily.contains(t) {
				return p
			}
		case !p.Since.IsZero():
			if !t.Before(p.Since) {
				return p
			}
		default:
			return p
		}
	}
	return ps[0]
}
