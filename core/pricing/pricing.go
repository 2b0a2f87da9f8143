// Package pricing holds the model price table sift estimates cost from when
// a harness prints no cost of its own.
//
// The embedded table (prices.json) names its source and the date it was
// checked; a JSON file of the same shape (`sift summary --pricing FILE`)
// overrides or extends it model by model.
package pricing

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

//go:embed prices.json
var embedded []byte

// Price is what one model costs, in USD per million tokens.
type Price struct {
	// Input is the price of uncached prompt tokens.
	Input float64 `json:"input"`
	// Output is the price of completion tokens (reasoning included).
	Output float64 `json:"output"`
	// CacheRead is the price of prompt tokens read from the cache.
	CacheRead float64 `json:"cacheRead"`
	// CacheWrite is the price of prompt tokens written to the cache;
	// 0 means they cost the same as Input.
	CacheWrite float64 `json:"cacheWrite,omitempty"`
	// Source names where the figure was read.
	Source string `json:"source,omitempty"`
}

// Table is a set of model prices with its provenance.
type Table struct {
	// Source and Date say where and when the prices were read.
	Source string `json:"source"`
	Date   string `json:"date"`
	// Unit is informational: "USD per million tokens".
	Unit string `json:"unit,omitempty"`
	// Models maps a model name to its price. Names are matched after
	// normalisation (see Lookup).
	Models map[string]Price `json:"models"`
}

// Usage is the token count of one estimate. Input includes the cached and
// cache-written shares, as sift's summaries count it.
type Usage struct {
	Input, Output, CacheRead, CacheWrite int64
}

// Default returns the embedded price table.
func Default() *Table {
	t, err := Parse(embedded)
	if err != nil {
		// The embedded file is checked by TestDefaultTable; an error
		// here can only come from a broken build.
		return &Table{Models: map[string]Price{}}
	}
	return t
}

// Parse reads a price table from its JSON form.
func Parse(data []byte) (*Table, error) {
	var t Table
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("parse price table: %w", err)
	}
	if len(t.Models) == 0 {
		return nil, fmt.Errorf("parse price table: no models")
	}
	models := make(map[string]Price, len(t.Models))
	for name, p := range t.Models {
		if p.Input < 0 || p.Output < 0 || p.CacheRead < 0 || p.CacheWrite < 0 {
			return nil, fmt.Errorf("parse price table: model %q: negative price", name)
		}
		models[normalize(name)] = p
	}
	t.Models = models
	return &t, nil
}

// Load reads a JSON price table from a file and lays it over the embedded
// one: models it names replace or add to the defaults.
func Load(path string) (*Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read price table: %w", err)
	}
	o, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Default().Merge(o), nil
}

// Merge returns a table with o's models laid over t's. Its source and date
// are o's when o names them.
func (t *Table) Merge(o *Table) *Table {
	m := &Table{Source: t.Source, Date: t.Date, Unit: t.Unit, Models: make(map[string]Price, len(t.Models)+len(o.Models))}
	for k, v := range t.Models {
		m.Models[k] = v
	}
	for k, v := range o.Models {
		m.Models[k] = v
	}
	if o.Source != "" {
		m.Source = o.Source
	}
	if o.Date != "" {
		m.Date = o.Date
	}
	return m
}

// Lookup returns the price of a model and the table key it matched. Names
// are compared lowercased, without a provider prefix ("dashscope/"), a
// bracketed suffix ("[1m]") or a date suffix ("-20251001"), and with dots
// read as dashes ("claude-haiku-4.5"); when no key matches exactly, the
// longest key that the name extends by a word wins
// ("claude-opus-4-5-thinking" → "claude-opus-4-5"), never one it extends by
// a version number ("claude-opus-4-7" is not "claude-opus-4").
func (t *Table) Lookup(model string) (Price, string, bool) {
	if t == nil || model == "" {
		return Price{}, "", false
	}
	n := normalize(model)
	if p, ok := t.Models[n]; ok {
		return p, n, true
	}
	best := ""
	for k := range t.Models {
		// The rest must be a variant word, not a version: "-thinking"
		// extends claude-opus-4-5, "-6" makes claude-opus-4-6 a model
		// of its own.
		if len(k) > len(best) && strings.HasPrefix(n, k) && len(n) > len(k)+1 &&
			n[len(k)] == '-' && (n[len(k)+1] < '0' || n[len(k)+1] > '9') {
			best = k
		}
	}
	if best == "" {
		return Price{}, "", false
	}
	return t.Models[best], best, true
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

// normalize puts a model name into the form table keys are compared in.
func normalize(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	s = strings.ReplaceAll(s, ".", "-")
	s = strings.ReplaceAll(s, "_", "-")
	return trimDate(s)
}

// trimDate removes a trailing -YYYYMMDD or -YYYY-MM-DD.
func trimDate(s string) string {
	digits := func(x string) bool {
		for i := 0; i < len(x); i++ {
			if x[i] < '0' || x[i] > '9' {
				return false
			}
		}
		return x != ""
	}
	if n := len(s); n > 9 && s[n-9] == '-' && digits(s[n-8:]) {
		return s[:n-9]
	}
	if n := len(s); n > 11 && s[n-11] == '-' && digits(s[n-10:n-6]) && s[n-6] == '-' &&
		digits(s[n-5:n-3]) && s[n-3] == '-' && digits(s[n-2:]) {
		return s[:n-11]
	}
	return s
}
