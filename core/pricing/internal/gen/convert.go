package main

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/agentsift/sift/core/pricing/internal/snapshot"
)

// rawProvider is a provider as the catalog's bundle holds it. Fields sift
// does not use are kept raw so that an unknown new field fails the
// conversion instead of passing unnoticed.
type rawProvider struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Description   json.RawMessage `json:"description"`
	PricingURLs   json.RawMessage `json:"pricing_urls"`
	APIPattern    json.RawMessage `json:"api_pattern"`
	PriceComments json.RawMessage `json:"price_comments"`
	ModelMatch    *snapshot.Match `json:"model_match"`
	ProviderMatch *snapshot.Match `json:"provider_match"`
	Extractors    json.RawMessage `json:"extractors"`
	Fallback      []string        `json:"fallback_model_providers"`
	Models        []rawModel      `json:"models"`
}

// rawModel is a model as the catalog's bundle holds it.
type rawModel struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Description   json.RawMessage `json:"description"`
	PriceComments json.RawMessage `json:"price_comments"`
	Deprecated    json.RawMessage `json:"deprecated"`
	Match         snapshot.Match  `json:"match"`
	ContextWindow float64         `json:"context_window"`
	// Prices is one price object or a list of constrained ones.
	Prices json.RawMessage `json:"prices"`
}

// rawPeriod is one constrained entry of a model's price list.
type rawPeriod struct {
	Constraint *struct {
		Type      string `json:"type"`
		StartDate string `json:"start_date"`
		StartTime string `json:"start_time"`
		EndTime   string `json:"end_time"`
	} `json:"constraint"`
	Prices map[string]json.RawMessage `json:"prices"`
}

// report counts what a conversion kept and left out.
type report struct {
	providers, models, unpriced, otherUnits, rewritten int
	units                                              map[string]int
}

// String implements fmt.Stringer.
func (r report) String() string {
	units := make([]string, 0, len(r.units))
	for u, n := range r.units {
		units = append(units, fmt.Sprintf("%s×%d", u, n))
	}
	sort.Strings(units)
	return fmt.Sprintf("%d providers, %d models kept; left out %d without any price and %d priced only in units sift does not count; %d look-ahead(s) rewritten; units not kept: %s",
		r.providers, r.models, r.unpriced, r.otherUnits, r.rewritten, strings.Join(units, ", "))
}

// convert turns the catalog's providers into a snapshot (without its
// provenance, which the caller adds).
func convert(raw []rawProvider) (*snapshot.Catalog, report, error) {
	rep := report{units: map[string]int{}}
	cat := &snapshot.Catalog{}
	for _, rp := range raw {
		p := snapshot.Provider{ID: rp.ID, Name: rp.Name, Fallback: rp.Fallback, Models: []snapshot.Model{}}
		if rp.ModelMatch != nil {
			m, n, err := rewrite(*rp.ModelMatch)
			if err != nil {
				return nil, rep, fmt.Errorf("provider %s: model_match: %w", rp.ID, err)
			}
			p.Claims, rep.rewritten = &m, rep.rewritten+n
		}
		if rp.ProviderMatch != nil {
			m, n, err := rewrite(*rp.ProviderMatch)
			if err != nil {
				return nil, rep, fmt.Errorf("provider %s: provider_match: %w", rp.ID, err)
			}
			p.Aliases, rep.rewritten = &m, rep.rewritten+n
		}
		for _, rm := range rp.Models {
			m, kept, err := convertModel(rm, &rep)
			if err != nil {
				return nil, rep, fmt.Errorf("provider %s: model %s: %w", rp.ID, rm.ID, err)
			}
			if kept {
				p.Models = append(p.Models, m)
			}
		}
		cat.Providers = append(cat.Providers, p)
		rep.providers++
		rep.models += len(p.Models)
	}
	return cat, rep, nil
}

// convertModel converts one model; kept is false for a model with no
// token price in some period (the catalog's free or image-only entries),
// which sift leaves unknown rather than charging nothing.
func convertModel(rm rawModel, rep *report) (snapshot.Model, bool, error) {
	m := snapshot.Model{ID: rm.ID, Name: rm.Name, Context: int64(rm.ContextWindow)}
	match, n, err := rewrite(rm.Match)
	if err != nil {
		return m, false, fmt.Errorf("match: %w", err)
	}
	m.Match, rep.rewritten = match, rep.rewritten+n
	var periods []rawPeriod
	if len(rm.Prices) > 0 && rm.Prices[0] == '[' {
		if err := json.Unmarshal(rm.Prices, &periods); err != nil {
			return m, false, fmt.Errorf("prices: %w", err)
		}
	} else {
		var one map[string]json.RawMessage
		if err := json.Unmarshal(rm.Prices, &one); err != nil {
			return m, false, fmt.Errorf("prices: %w", err)
		}
		periods = []rawPeriod{{Prices: one}}
	}
	for _, rp := range periods {
		p, err := convertPeriod(rp, rep)
		if err != nil {
			return m, false, err
		}
		if p.Input == nil && p.Output == nil {
			if len(rp.Prices) == 0 {
				rep.unpriced++
			} else {
				rep.otherUnits++
			}
			return m, false, nil
		}
		m.Prices = append(m.Prices, p)
	}
	if len(m.Prices) == 0 {
		rep.unpriced++
		return m, false, nil
	}
	return m, true, nil
}

// convertPeriod converts one price period, keeping the token rates.
func convertPeriod(rp rawPeriod, rep *report) (snapshot.Period, error) {
	var p snapshot.Period
	if c := rp.Constraint; c != nil {
		switch c.Type {
		case "start_date":
			p.Since = c.StartDate
		case "time_of_date":
			p.Daily = []string{c.StartTime, c.EndTime}
		default:
			return p, fmt.Errorf("unknown price constraint %q", c.Type)
		}
	}
	fields := map[string]**snapshot.Rate{
		"input_mtok": &p.Input, "output_mtok": &p.Output, "cache_read_mtok": &p.CacheRead,
		"cache_write_mtok": &p.CacheWrite, "cache_write_1h_mtok": &p.CacheWrite1h,
	}
	for key, v := range rp.Prices {
		dst, ok := fields[key]
		if !ok {
			rep.units[key]++
			continue
		}
		var r snapshot.Rate
		if err := json.Unmarshal(v, &r); err != nil {
			return p, fmt.Errorf("%s: %w", key, err)
		}
		if err := checkRate(r); err != nil {
			return p, fmt.Errorf("%s: %w", key, err)
		}
		*dst = &r
	}
	return p, nil
}

// checkRate refuses a negative or non-finite price and tiers out of order.
func checkRate(r snapshot.Rate) error {
	ok := func(v float64) bool { return v >= 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }
	if !ok(r.Base) {
		return fmt.Errorf("bad price %v", r.Base)
	}
	for i, t := range r.Tiers {
		if !ok(t.Price) || t.Start <= 0 || (i > 0 && t.Start <= r.Tiers[i-1].Start) {
			return fmt.Errorf("bad tier %+v", t)
		}
	}
	return nil
}

// rewrite checks a match rule and rewrites the regular expressions RE2
// cannot run: a leading negative look-ahead `^(?!X)Y` becomes
// and(not(^X), ^Y). It returns how many it rewrote.
func rewrite(m snapshot.Match) (snapshot.Match, int, error) {
	set := 0
	for _, s := range []string{m.Equals, m.StartsWith, m.EndsWith, m.Contains, m.Regex} {
		if s != "" {
			set++
		}
	}
	if m.Or != nil {
		set++
	}
	if m.And != nil {
		set++
	}
	if m.Not != nil {
		set++
	}
	if set != 1 {
		return m, 0, fmt.Errorf("a match rule sets %d fields, want 1", set)
	}
	n := 0
	for _, list := range [][]snapshot.Match{m.Or, m.And} {
		for i := range list {
			r, k, err := rewrite(list[i])
			if err != nil {
				return m, 0, err
			}
			list[i], n = r, n+k
		}
	}
	if m.Not != nil {
		r, k, err := rewrite(*m.Not)
		if err != nil {
			return m, 0, err
		}
		m.Not, n = &r, n+k
	}
	if m.Regex == "" {
		return m, n, nil
	}
	if strings.HasPrefix(m.Regex, "^(?!") {
		end := closeParen(m.Regex, 1)
		if end < 0 {
			return m, 0, fmt.Errorf("regex %q: unbalanced look-ahead", m.Regex)
		}
		not := snapshot.Match{Regex: "^" + m.Regex[4:end]}
		rest := m.Regex[end+1:]
		out := snapshot.Match{Not: &not}
		if rest != "" {
			out = snapshot.Match{And: []snapshot.Match{{Not: &not}, {Regex: "^" + rest}}}
		}
		r, k, err := rewrite(out)
		return r, n + k + 1, err
	}
	if _, err := regexp.Compile(m.Regex); err != nil {
		return m, 0, fmt.Errorf("regex %q: %w", m.Regex, err)
	}
	return m, n, nil
}

// closeParen returns the index of the parenthesis that closes the one at
// open, skipping escapes and character classes, or -1.
func closeParen(re string, open int) int {
	depth, class := 0, false
	for i := open; i < len(re); i++ {
		switch c := re[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
