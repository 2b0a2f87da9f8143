package pricing

import (
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Source says which price list a model's price is from.
type Source string

// The price lists, in the order a name is looked up in: a configured
// override, the catalog, sift's supplement for models the catalog lacks.
const (
	FromOverride   Source = "override"
	FromCatalog    Source = "catalog"
	FromSupplement Source = "supplement"
)

// Match says how a model name was resolved to a price, for `sift prices`
// and for a summary's cost basis.
type Match struct {
	// Name is the name asked for.
	Name string
	// Form is the name as matched, lowercased, after Steps.
	Form string
	// Steps are how Name was read to get Form, in order: a provider
	// prefix dropped, a date suffix dropped, dots read as dashes.
	Steps []string
	// Provider is the catalog provider whose list matched, and Via why
	// it was looked in: a prefix named it, it claims such names, or it
	// is the only one listing the name.
	Provider, Via string
	// Rule is the rule that matched, as the catalog writes it
	// (`starts_with "claude-opus-4-5"`), or the override's name.
	Rule string
	// Family is set when the name extends the rule's literal by a
	// variant word ("-thinking") rather than being one of its names.
	Family bool
	// Source is the price list; File is the override's file.
	Source Source
	File   string
	// Candidates lists, for a name several providers list at different
	// prices and none is named, the provider/model entries to choose
	// from with a provider prefix.
	Candidates []string
}

// form is one reading of a model name.
type form struct {
	name  string
	hint  *provider
	via   string
	steps []string
}

// with returns f renamed by one more step.
func (f form) with(name, step string) form {
	f.name, f.steps = name, append(f.steps[:len(f.steps):len(f.steps)], step)
	return f
}

// forms returns the readings of a name to try, most literal first: the
// name, then each route prefix dropped in turn ("openrouter/anthropic/x"
// is x at openrouter, then x at anthropic), each followed by its
// decorations dropped one by one (a "[1m]" suffix, a Vertex "@version",
// a Bedrock "-v1:0", a date, "-latest").
func (c *catalog) forms(name string) []form {
	s := strings.ToLower(strings.TrimSpace(name))
	if s == "" {
		return nil
	}
	var out []form
	cur := form{name: s}
	for {
		out = c.decorations(out, cur)
		i := strings.IndexByte(cur.name, '/')
		if i <= 0 || i == len(cur.name)-1 {
			return out
		}
		seg := cur.name[:i]
		switch p := c.alias(seg); {
		case seg == "models" && c.byID["google"] != nil:
			cur = cur.with(cur.name[i+1:], "read the Gemini API prefix models/")
			cur.hint, cur.via = c.byID["google"], "the Gemini API prefix models/ names it"
		case p != nil:
			cur = cur.with(cur.name[i+1:], "dropped the provider prefix "+seg+"/")
			cur.hint, cur.via = p, "the prefix "+seg+"/ names it"
		default:
			cur = cur.with(cur.name[i+1:], "dropped the route prefix "+seg+"/")
		}
	}
}

// decorations appends f and its forms with decorations dropped.
func (c *catalog) decorations(out []form, f form) []form {
	if f.hint == nil {
		switch {
		case bedrockID(f.name) && c.byID["aws"] != nil:
			f.hint, f.via = c.byID["aws"], "a Bedrock model id names it"
		case strings.IndexByte(f.name, '@') > 0 && c.byID["google"] != nil:
			f.hint, f.via = c.byID["google"], "a Vertex AI model id (@version) names it"
		}
	}
	out = append(out, f)
	if i := strings.LastIndexByte(f.name, '['); i > 0 && strings.HasSuffix(f.name, "]") {
		f = f.with(f.name[:i], "dropped "+f.name[i:])
		out = append(out, f)
	}
	if i := strings.IndexByte(f.name, '@'); i > 0 && i < len(f.name)-1 {
		f = f.with(f.name[:i], "dropped the Vertex version "+f.name[i:])
		out = append(out, f)
	}
	if f.hint != nil && f.hint.id == "aws" {
		if n, v, ok := cutBedrockVersion(f.name); ok {
			f = f.with(n, "dropped the Bedrock version "+v)
			out = append(out, f)
		}
	}
	if n, d, ok := cutDate(f.name); ok {
		f = f.with(n, "dropped the date "+d)
		out = append(out, f)
	}
	if n, ok := strings.CutSuffix(f.name, "-latest"); ok && n != "" {
		f = f.with(n, "dropped -latest")
		out = append(out, f)
	}
	return out
}

// alias returns the provider a route prefix names: by id, else by the
// catalog's provider names ("vertex_ai" is google, "bedrock" aws).
func (c *catalog) alias(seg string) *provider {
	if p := c.byID[seg]; p != nil {
		return p
	}
	for _, p := range c.providers {
		if p.aliases != nil {
			if l, _ := p.aliases.test(seg, plain); l != miss {
				return p
			}
		}
	}
	return nil
}

// bedrockID reports whether a name has Bedrock's shape: a vendor, and
// maybe a region before it, then a dot ("anthropic.claude-…",
// "us.anthropic.claude-…", "us-gov.anthropic.…").
func bedrockID(s string) bool {
	i := strings.IndexByte(s, '.')
	if i <= 0 || i == len(s)-1 {
		return false
	}
	head := strings.TrimSuffix(s[:i], "-gov")
	for j := 0; j < len(head); j++ {
		if head[j] < 'a' || head[j] > 'z' {
			return false
		}
	}
	return head != ""
}

// cutBedrockVersion cuts a Bedrock version suffix: "-v1:0", "-v2".
func cutBedrockVersion(s string) (string, string, bool) {
	i := strings.LastIndex(s, "-v")
	if i <= 0 {
		return s, "", false
	}
	v := s[i+2:]
	num, minor, _ := strings.Cut(v, ":")
	if !digits(num) || (strings.Contains(v, ":") && !digits(minor)) {
		return s, "", false
	}
	return s[:i], s[i:], true
}

// cutDate cuts a date suffix: "-20250929" or "-2025-09-29".
func cutDate(s string) (string, string, bool) {
	for _, l := range []string{"20060102", time.DateOnly} {
		n := len(l) + 1
		if len(s) > n && s[len(s)-n] == '-' {
			if _, err := time.Parse(l, s[len(s)-len(l):]); err == nil && strings.HasPrefix(s[len(s)-len(l):], "20") {
				return s[:len(s)-n], s[len(s)-n:], true
			}
		}
	}
	return s, "", false
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// route is a provider a form is looked up in, and why.
type route struct {
	p *provider
	// claims is set when p claims the name; parent when p is the
	// fallback of the provider named or claiming.
	claims bool
	parent *provider
}

// why says why the provider was looked in.
func (r route) why(f form) string {
	var s string
	switch {
	case r.parent != nil:
		s = route{p: r.parent, claims: f.hint == nil}.why(f) + "; " + r.parent.id + " serves " + r.p.id + "'s models"
	case r.claims:
		s = r.p.id + " claims names: " + r.p.claims.String()
	default:
		s = f.via
	}
	return s
}

// routes returns the providers a form is looked up in: the one a prefix
// names, else those claiming it, each followed by its fallbacks.
func (c *catalog) routes(f form) []route {
	var heads []route
	if f.hint != nil {
		heads = []route{{p: f.hint}}
	} else {
		for _, p := range c.providers {
			if p.claims == nil {
				continue
			}
			if l, _ := p.claims.test(f.name, plain); l != miss {
				heads = append(heads, route{p: p, claims: true})
			}
		}
	}
	var out []route
	for _, h := range heads {
		out = append(out, h)
		for _, fb := range h.p.fallback {
			out = append(out, route{p: fb, parent: h.p})
		}
	}
	return out
}

// resolve finds a name in the catalog, then in the supplement: first an
// exact name, then a variant of a family, each first as written and then
// with dots read as dashes. A name no provider claims or is named for is
// looked up in every provider's list; it resolves when the providers
// listing it agree on its price.
func (c *catalog) resolve(name string, forms []form) (Model, Match, bool) {
	mt := Match{Name: name}
	passes := []struct {
		md   mode
		want level
	}{{guarded, exact}, {guarded, family}, {folded, exact}, {folded, family}}
	routes := make([][]route, len(forms))
	for i, f := range forms {
		routes[i] = c.routes(f)
	}
	for _, ps := range passes {
		for i, f := range forms {
			n := f.name
			if ps.md == folded {
				n = foldName(n)
			}
			for _, r := range routes[i] {
				if e, leaf, lv := r.p.find(n, ps.md, ps.want); e != nil {
					return e.model, fill(mt, f, ps.md, r.p.id, r.why(f), leaf, lv, e), true
				}
			}
		}
	}
	for _, f := range forms {
		if f.hint != nil {
			continue
		}
		hits := c.listed(f.name)
		if len(hits) == 0 {
			continue
		}
		for _, h := range hits[1:] {
			if !reflect.DeepEqual(h.model.periods, hits[0].model.periods) {
				for _, h := range hits {
					mt.Candidates = append(mt.Candidates, h.model.Provider+"/"+h.model.ID)
				}
				return Model{}, mt, false
			}
		}
		via := "no provider claims it; " + hits[0].model.Provider + " alone lists it"
		if len(hits) > 1 {
			via = fmt.Sprintf("no provider claims it; %d providers list it at one price", len(hits))
		}
		l, leaf := hits[0].rule.test(f.name, guarded)
		return hits[0].model, fill(mt, f, guarded, hits[0].model.Provider, via, leaf, l, hits[0]), true
	}
	for _, ps := range passes {
		for _, f := range forms {
			n := f.name
			if ps.md == folded {
				n = foldName(n)
			}
			if e, leaf, lv := c.supplement.find(n, ps.md, ps.want); e != nil {
				return e.model, fill(mt, f, ps.md, "", "the catalog lacks it: sift's supplement", leaf, lv, e), true
			}
		}
	}
	return Model{}, mt, false
}

// fill completes a match.
func fill(mt Match, f form, md mode, prov, via string, leaf *rule, lv level, e *entry) Match {
	mt.Form, mt.Steps, mt.Provider, mt.Via = f.name, f.steps, prov, via
	if md == folded {
		mt.Form, mt.Steps = foldName(f.name), append(f.steps[:len(f.steps):len(f.steps)], "read dots as dashes")
	}
	if leaf != nil {
		mt.Rule = leaf.String()
	}
	mt.Family, mt.Source = lv == family, e.model.Source
	return mt
}

// find returns the provider's first model whose rule matches name at
// level want.
func (p *provider) find(name string, md mode, want level) (*entry, *rule, level) {
	if want == exact {
		var best *entry
		for _, e := range p.idx.exact(name, md) {
			if best == nil || e.pos < best.pos {
				best = e
			}
		}
		if best == nil {
			return nil, nil, miss
		}
		_, leaf := best.rule.test(name, md)
		return best, leaf, exact
	}
	for _, e := range p.models {
		if l, leaf := e.rule.test(name, md); l == want {
			return e, leaf, l
		}
	}
	return nil, nil, miss
}

// listed returns the models of any provider whose rule names name
// exactly.
func (c *catalog) listed(name string) []*entry { return c.all.exact(name, guarded) }
