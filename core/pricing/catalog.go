package pricing

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentsift/sift/core/pricing/internal/snapshot"
)

// catalog is a parsed snapshot: its providers compiled for matching and
// its models built. It is never changed once parsed, so that one catalog
// serves every Table and goroutine.
type catalog struct {
	info      snapshot.Catalog // the header; Providers is nil
	asOf      time.Time
	providers []*provider
	byID      map[string]*provider
	// all indexes every model, for names no provider claims.
	all index
	// supplement holds sift's own entries for models the catalog lacks.
	supplement *provider
}

// provider is one compiled provider.
type provider struct {
	id, name string
	claims   *rule
	aliases  *rule
	fallback []*provider
	models   []*entry
	idx      index
}

// entry is one model and the rule naming it; pos is its place in its
// provider's list, whose first match wins.
type entry struct {
	model Model
	rule  rule
	pos   int
}

// index finds the models whose rule may name a name exactly without
// testing every rule: by literal, by folded literal, and the rules with
// a regex (the only other way to be exact).
type index struct {
	lit, fold map[string][]*entry
	regexed   []*entry
}

// add records the literals of a model's rule.
func (x *index) add(e *entry, r *rule) {
	if x.lit == nil {
		x.lit, x.fold = map[string][]*entry{}, map[string][]*entry{}
	}
	push := func(m map[string][]*entry, k string) {
		if l := m[k]; len(l) == 0 || l[len(l)-1] != e {
			m[k] = append(l, e)
		}
	}
	switch r.op {
	case opEquals, opPrefix, opSuffix, opContains:
		push(x.lit, r.lit)
		push(x.fold, r.fold)
	case opRegex:
		if n := len(x.regexed); n == 0 || x.regexed[n-1] != e {
			x.regexed = append(x.regexed, e)
		}
	case opAnd, opOr:
		for i := range r.sub {
			x.add(e, &r.sub[i])
		}
	}
}

// exact returns the models whose rule names name exactly in mode md, in
// the order they were added.
func (x *index) exact(name string, md mode) []*entry {
	cands := x.lit[name]
	if md == folded {
		cands = x.fold[name]
	} else if len(x.regexed) > 0 {
		cands = append(cands[:len(cands):len(cands)], x.regexed...)
	}
	var out []*entry
	for _, e := range cands {
		if l, _ := e.rule.test(name, md); l == exact && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// parseCatalog parses the catalog snapshot and sift's supplement.
func parseCatalog(data, supplement []byte) (*catalog, error) {
	snap, err := snapshot.Parse(data)
	if err != nil {
		return nil, err
	}
	asOf, err := time.Parse(time.DateOnly, snap.Date)
	if err != nil {
		return nil, fmt.Errorf("parse price catalog: date: %w", err)
	}
	c := &catalog{asOf: asOf, byID: map[string]*provider{}}
	c.info = *snap
	c.info.Providers = nil
	origin := strings.TrimPrefix(snap.Source, "npm:") + " " + snap.Version
	for _, sp := range snap.Providers {
		p, err := c.provider(sp, FromCatalog, origin)
		if err != nil {
			return nil, err
		}
		if c.byID[p.id] != nil {
			return nil, fmt.Errorf("parse price catalog: provider %s twice", p.id)
		}
		c.providers = append(c.providers, p)
		c.byID[p.id] = p
		for _, e := range p.models {
			c.all.add(e, &e.rule)
		}
	}
	for i, sp := range snap.Providers {
		for _, id := range sp.Fallback {
			f := c.byID[id]
			if f == nil {
				return nil, fmt.Errorf("parse price catalog: provider %s: unknown fallback %s", sp.ID, id)
			}
			c.providers[i].fallback = append(c.providers[i].fallback, f)
		}
	}
	sup, err := snapshot.Parse(supplement)
	if err != nil {
		return nil, fmt.Errorf("supplement: %w", err)
	}
	if len(sup.Providers) != 1 {
		return nil, fmt.Errorf("supplement: want one provider, got %d", len(sup.Providers))
	}
	if c.supplement, err = c.provider(sup.Providers[0], FromSupplement, ""); err != nil {
		return nil, fmt.Errorf("supplement: %w", err)
	}
	return c, nil
}

// provider compiles one provider of a snapshot; origin is the provenance
// its models carry when they name none of their own.
func (c *catalog) provider(sp snapshot.Provider, src Source, origin string) (*provider, error) {
	p := &provider{id: sp.ID, name: sp.Name}
	for _, r := range []struct {
		m   *snapshot.Match
		dst **rule
	}{{sp.Claims, &p.claims}, {sp.Aliases, &p.aliases}} {
		if r.m == nil {
			continue
		}
		cr, err := compile(*r.m)
		if err != nil {
			return nil, fmt.Errorf("provider %s: %w", sp.ID, err)
		}
		*r.dst = &cr
	}
	byID := map[string]*entry{}
	for _, sm := range sp.Models {
		e := &entry{pos: len(p.models), model: Model{ID: sm.ID, Name: sm.Name, Provider: sp.ID, Context: sm.Context,
			Source: src, Origin: origin, asOf: c.asOf}}
		if sm.Source != "" {
			e.model.Origin = sm.Source
		}
		if src == FromSupplement {
			e.model.Provider = "" // its own list, not a seller
		}
		var err error
		if e.rule, err = compile(sm.Match); err != nil {
			return nil, fmt.Errorf("provider %s: model %s: %w", sp.ID, sm.ID, err)
		}
		if e.model.periods, err = periods(sm.Prices); err != nil {
			return nil, fmt.Errorf("provider %s: model %s: %w", sp.ID, sm.ID, err)
		}
		p.models = append(p.models, e)
		p.idx.add(e, &e.rule)
		byID[strings.ToLower(sm.ID)] = e
	}
	linkTiers(p.models, byID)
	return p, nil
}

// linkTiers gives each model the service tiers its provider lists as
// models of their own: "claude-opus-4.8-fast" is claude-opus-4.8 at the
// fast tier, "openai/gpt-6-sol:batch" is openai/gpt-6-sol in batch.
func linkTiers(models []*entry, byID map[string]*entry) {
	for _, e := range models {
		id := strings.ToLower(e.model.ID)
		for _, t := range otherTiers() {
			for _, sep := range []string{"-", ":"} {
				base := byID[strings.TrimSuffix(id, sep+string(t))]
				if base == nil || base == e {
					continue
				}
				if base.model.tiers == nil {
					base.model.tiers = map[ServiceTier][]Period{}
				}
				base.model.tiers[t] = e.model.periods
			}
		}
	}
}

// periods builds a model's price periods from the snapshot's.
func periods(sps []snapshot.Period) ([]Period, error) {
	if len(sps) == 0 {
		return nil, fmt.Errorf("no prices")
	}
	out := make([]Period, 0, len(sps))
	for _, sp := range sps {
		var p Period
		if sp.Since != "" {
			t, err := time.Parse(time.DateOnly, sp.Since)
			if err != nil {
				return nil, fmt.Errorf("since: %w", err)
			}
			p.Since = t
		}
		if sp.Daily != nil {
			d, err := daily(sp.Daily)
			if err != nil {
				return nil, err
			}
			p.Daily = &d
		}
		p.Rates = rates(rate(sp.Input), rate(sp.Output), rate(sp.CacheRead), rate(sp.CacheWrite), rate(sp.CacheWrite1h))
		out = append(out, p)
	}
	return out, nil
}

// rate converts a snapshot rate; nil stays nil (not priced).
func rate(r *snapshot.Rate) *Rate {
	if r == nil {
		return nil
	}
	out := &Rate{Base: r.Base}
	for _, t := range r.Tiers {
		out.Above = append(out.Above, Band{Tokens: t.Start, Price: t.Price})
	}
	return out
}

// rates fills the rates a price list lacks from their parents: a 1-hour
// write is billed as a write, a read or a write as input; a missing input
// or output price is zero, as the catalog reads it.
func rates(in, out, read, write, write1h *Rate) Rates {
	or := func(r, parent *Rate) *Rate {
		if r != nil {
			return r
		}
		return parent
	}
	val := func(r *Rate) Rate {
		if r == nil {
			return Rate{}
		}
		return *r
	}
	write = or(write, in)
	return Rates{Input: val(in), Output: val(out), CacheRead: val(or(read, in)),
		CacheWrite: val(write), CacheWrite1h: val(or(write1h, write))}
}

// daily parses a [start, end] time-of-day window, as the catalog writes
// it ("00:30:00Z", "08:30:00+08:00"), into UTC seconds.
func daily(w []string) (Daily, error) {
	if len(w) != 2 {
		return Daily{}, fmt.Errorf("daily window %q: want a start and an end", w)
	}
	var secs [2]int
	for i, s := range w {
		t, err := time.Parse("15:04:05Z07:00", s)
		if err != nil {
			return Daily{}, fmt.Errorf("daily window: %w", err)
		}
		t = t.UTC()
		secs[i] = t.Hour()*3600 + t.Minute()*60 + t.Second()
	}
	return Daily{From: secs[0], To: secs[1]}, nil
}
