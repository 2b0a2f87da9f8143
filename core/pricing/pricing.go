// Package pricing prices model requests for sift, which estimates a run's
// cost when its harness prints none.
//
// The prices are a snapshot of a maintained public catalog, npm
// @pydantic/genai-prices (catalog.json, written by `go generate`; see
// generate.go), with its source, version, sha512 and date. It knows every
// provider's names for a model (dated, "-latest", Bedrock and Vertex
// ids), context-length tiers, 5-minute and 1-hour cache writes, dated
// price changes, off-peak windows and the service tiers a provider lists.
// A few models the catalog lacks and sift priced before it are kept in
// supplement.json, each with its reference. A name that matches nothing
// is unknown: sift never prices one model as its nearest version.
//
// Overrides (the configuration's Prices key, `sift summary --pricing
// FILE`) lay a price list over the catalog, model by model.
package pricing

import (
	_ "embed"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// The embedded price lists; catalog.json is generated, supplement.json
// kept by hand.
var (
	//go:embed catalog.json
	embeddedCatalog []byte
	//go:embed supplement.json
	embeddedSupplement []byte
)

// builtin parses the embedded lists once: the catalog is read-only once
// parsed, and every Table shares it.
var builtin = sync.OnceValues(func() (*catalog, error) {
	return parseCatalog(embeddedCatalog, embeddedSupplement)
})

// Price is what one model costs, in USD per million tokens, at its first
// context-length band: the form summaries price a whole run or turn in.
type Price struct {
	// Input is the price of uncached prompt tokens.
	Input float64 `json:"input"`
	// Output is the price of completion tokens (reasoning included).
	Output float64 `json:"output"`
	// CacheRead is the price of prompt tokens read from the cache.
	CacheRead float64 `json:"cacheRead"`
	// CacheWrite is the price of prompt tokens written to the cache for
	// 5 minutes; 0 means they cost the same as Input.
	CacheWrite float64 `json:"cacheWrite,omitempty"`
	// CacheWrite1h is the price of 1-hour cache writes.
	CacheWrite1h float64 `json:"cacheWrite1h,omitempty"`
	// Source names where the figure was read.
	Source string `json:"source,omitempty"`
}

// Usage is the token count of one estimate. Input includes the cached and
// cache-written shares, as sift's summaries count it.
type Usage struct {
	Input, Output, CacheRead, CacheWrite int64
}

// Cost returns the cost of a usage at this price, in USD.
func (p Price) Cost(u Usage) float64 {
	write := p.CacheWrite
	if write == 0 {
		write = p.Input
	}
	uncached := max(u.Input-u.CacheRead-u.CacheWrite, 0)
	return (float64(uncached)*p.Input + float64(u.CacheRead)*p.CacheRead +
		float64(u.CacheWrite)*write + float64(u.Output)*p.Output) / 1e6
}

// Table is the catalog with the overrides laid over it. It is safe for
// concurrent use and never changes: With returns a new one.
type Table struct {
	// Source, Version, Integrity, Tarball, Published, Licence and
	// Homepage describe the catalog snapshot.
	Source, Version, Integrity, Tarball, Published, Licence, Homepage string
	// Date is the day the snapshot was made, or the date an override
	// list gives.
	Date string
	// Unit is informational: "USD per million tokens".
	Unit string

	cat *catalog
	// over maps an override's name (overKey) to its model.
	over map[string]overEntry
	// memo remembers resolved names: summaries price every turn, and a
	// name is read several ways before it resolves.
	memo *memo
}

// memo is a bounded cache of resolved names, so that a stream naming
// many models cannot grow it without end.
type memo struct {
	m sync.Map // name → resolved
	n atomic.Int64
}

// memoMax bounds a memo.
const memoMax = 4096

// resolved is one remembered answer of Resolve.
type resolved struct {
	m     Model
	mt    Match
	ok    bool
	price Price
}

// Default returns the embedded catalog.
func Default() *Table {
	c, err := builtin()
	if err != nil {
		// The embedded files are checked by TestDefaultTable; an error
		// here can only come from a broken build.
		return &Table{}
	}
	i := c.info
	return &Table{Source: i.Source, Version: i.Version, Integrity: i.Integrity, Tarball: i.Tarball,
		Published: i.Published, Licence: i.Licence, Homepage: i.Homepage, Date: i.Date, Unit: i.Unit,
		cat: c, memo: &memo{}}
}

// Load reads a JSON override list (see Overrides) from a file and lays
// it over the embedded catalog. The configuration reads the same list
// from YAML (config.LoadPrices).
func Load(path string) (*Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read price table: %w", err)
	}
	o, err := ParseOverrides(data)
	if err != nil {
		return nil, fmt.Errorf("price table %s: %w", path, err)
	}
	return Default().With(o, path), nil
}

// Resolve returns the price of a model name and how the name matched:
// an override first, then the catalog, then sift's supplement. ok is
// false for a name nothing matches.
func (t *Table) Resolve(name string) (Model, Match, bool) {
	r := t.remembered(name)
	// The memo's slices are shared: callers get their own.
	r.mt.Steps, r.mt.Candidates = slices.Clone(r.mt.Steps), slices.Clone(r.mt.Candidates)
	return r.m, r.mt, r.ok
}

// remembered is Resolve through the memo, with the memo's own slices.
func (t *Table) remembered(name string) resolved {
	if t == nil || t.cat == nil {
		return resolved{mt: Match{Name: name}}
	}
	if t.memo == nil {
		m, mt, ok := t.resolve(name)
		return resolved{m, mt, ok, m.Price()}
	}
	if r, ok := t.memo.m.Load(name); ok {
		return r.(resolved)
	}
	// The name may be a view of a reused buffer (a parse's lent
	// events): the memo keeps a copy, as a key that changed under it
	// would corrupt the map (sync.Map panics: "ran out of hash bits").
	name = strings.Clone(name)
	m, mt, ok := t.resolve(name)
	r := resolved{m, mt, ok, m.Price()}
	if t.memo.n.Load() < memoMax {
		if _, loaded := t.memo.m.LoadOrStore(name, r); !loaded {
			t.memo.n.Add(1)
		}
	}
	return r
}

// resolve is Resolve without the memo.
func (t *Table) resolve(name string) (m Model, mt Match, ok bool) {
	mt = Match{Name: name}
	forms := t.cat.forms(name)
	if len(forms) == 0 {
		return Model{}, mt, false
	}
	if o, f, ok := t.override(forms); ok {
		mt.Form, mt.Steps, mt.Rule, mt.Source, mt.File = f.name, f.steps, "override "+o.m.ID, FromOverride, o.file
		return o.m, mt, true
	}
	m, mt, ok = t.cat.resolve(name, forms)
	if !ok {
		return m, mt, false
	}
	if o, found := t.over[overKey(m.ID)]; found {
		mt.Rule, mt.Source, mt.File = "override "+o.m.ID+" of "+m.Provider+"/"+m.ID, FromOverride, o.file
		return o.m, mt, true
	}
	return m, mt, true
}

// Lookup returns the first-band standard price of a model and the id of
// the catalog entry (or override) it matched; see Resolve.
func (t *Table) Lookup(model string) (Price, string, bool) {
	r := t.remembered(model)
	if !r.ok {
		return Price{}, "", false
	}
	return r.price, r.m.ID, true
}

// Priced returns the model a name resolves to, as Resolve, without the
// record of how it matched: summaries price turn after turn with it, and
// it costs no allocation once the name is remembered.
func (t *Table) Priced(name string) (Model, bool) {
	r := t.remembered(name)
	return r.m, r.ok
}

// Models returns every priced model: the overrides (by name), then the
// catalog's in its order, then the supplement's.
func (t *Table) Models() []Model {
	if t == nil || t.cat == nil {
		return nil
	}
	var out []Model
	names := make([]string, 0, len(t.over))
	for k := range t.over {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		out = append(out, t.over[k].m)
	}
	for _, p := range append(t.cat.providers, t.cat.supplement) {
		for _, e := range p.models {
			out = append(out, e.model)
		}
	}
	return out
}
