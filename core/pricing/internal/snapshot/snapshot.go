// Package snapshot is the JSON form of sift's embedded price catalog,
// shared by the generator that writes it (core/pricing/internal/gen) and
// the pricing package that reads it.
//
// The form follows the catalog it is made from (@pydantic/genai-prices):
// providers hold models, a model names the names it answers to with the
// catalog's match rules, and its prices are a list of periods, each a set
// of rates in USD per million tokens, a rate either a number or a base
// with context-length tiers. Only the token rates sift charges are kept.
package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Catalog is one snapshot with its provenance.
type Catalog struct {
	// Source names where the prices were read, e.g.
	// "npm:@pydantic/genai-prices".
	Source string `json:"source"`
	// Version is the package version read.
	Version string `json:"version,omitempty"`
	// Tarball is the registry's address of the package.
	Tarball string `json:"tarball,omitempty"`
	// Integrity is the registry's sha512 of the tarball, checked when it
	// was read.
	Integrity string `json:"integrity,omitempty"`
	// Published is the day the registry published Version (YYYY-MM-DD).
	Published string `json:"published,omitempty"`
	// Date is the day the snapshot was made (YYYY-MM-DD).
	Date string `json:"date"`
	// Licence is the package's licence.
	Licence string `json:"licence,omitempty"`
	// Homepage is where the catalog is maintained.
	Homepage string `json:"homepage,omitempty"`
	// Unit is informational: "USD per million tokens".
	Unit string `json:"unit,omitempty"`
	// Providers are in the catalog's order, which is the order names are
	// claimed in.
	Providers []Provider `json:"providers"`
}

// Provider is one API that sells models.
type Provider struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// Claims are the model names this provider is the first place to look
	// for (the catalog's model_match), absent when it claims none.
	Claims *Match `json:"claims,omitempty"`
	// Aliases are the names a provider prefix may give it besides its id
	// ("vertex_ai/" is google; the catalog's provider_match).
	Aliases *Match `json:"aliases,omitempty"`
	// Fallback lists providers whose models this one also serves
	// (Vertex serves Anthropic's), searched after its own.
	Fallback []string `json:"fallback,omitempty"`
	Models   []Model  `json:"models"`
}

// Model is one priced model of a provider.
type Model struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// Source says where a price not taken from the catalog was read
	// (sift's supplement); empty for catalog entries.
	Source string `json:"source,omitempty"`
	// Match is the names the model answers to.
	Match Match `json:"match"`
	// Context is the context window in tokens, when the catalog says.
	Context int64 `json:"context,omitempty"`
	// Prices are the model's price periods, in the catalog's order: the
	// last one whose constraint holds applies, else the first.
	Prices []Period `json:"prices"`
}

// Period is the rates of one price period. A period with neither Since
// nor Daily is unconstrained.
type Period struct {
	// Since is the first day (YYYY-MM-DD, UTC) the rates apply.
	Since string `json:"since,omitempty"`
	// Daily is a time-of-day window [start, end) the rates apply in,
	// as the catalog writes it ("00:30:00Z"); an end before the start
	// wraps past midnight.
	Daily []string `json:"daily,omitempty"`
	// The token rates, absent where the catalog has none (a missing
	// cache rate is billed as its parent: write 1h as write, write and
	// read as input).
	Input        *Rate `json:"input,omitempty"`
	Output       *Rate `json:"output,omitempty"`
	CacheRead    *Rate `json:"cacheRead,omitempty"`
	CacheWrite   *Rate `json:"cacheWrite,omitempty"`
	CacheWrite1h *Rate `json:"cacheWrite1h,omitempty"`
}

// Rate is a price per million tokens with its context-length tiers.
type Rate struct {
	Base float64
	// Tiers apply to a whole request whose prompt (input tokens, cached
	// ones included) is above Start tokens; the last such tier wins.
	Tiers []Tier
}

// Tier is the price of requests whose prompt is above Start tokens.
type Tier struct {
	Start int64   `json:"start"`
	Price float64 `json:"price"`
}

// rateJSON is Rate's object form.
type rateJSON struct {
	Base  float64 `json:"base"`
	Tiers []Tier  `json:"tiers"`
}

// MarshalJSON writes a rate without tiers as a plain number.
func (r Rate) MarshalJSON() ([]byte, error) {
	if len(r.Tiers) == 0 {
		return json.Marshal(r.Base)
	}
	return json.Marshal(rateJSON{r.Base, r.Tiers})
}

// UnmarshalJSON reads a number or a {"base", "tiers"} object.
func (r *Rate) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '{' {
		var o rateJSON
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return fmt.Errorf("rate: %w", err)
		}
		r.Base, r.Tiers = o.Base, o.Tiers
		return nil
	}
	r.Tiers = nil
	if err := json.Unmarshal(data, &r.Base); err != nil {
		return fmt.Errorf("rate: %w", err)
	}
	return nil
}

// Match is one of the catalog's match rules: exactly one field is set.
// Names are compared lowercased; regular expressions are RE2.
type Match struct {
	Equals     string  `json:"equals,omitempty"`
	StartsWith string  `json:"starts_with,omitempty"`
	EndsWith   string  `json:"ends_with,omitempty"`
	Contains   string  `json:"contains,omitempty"`
	Regex      string  `json:"regex,omitempty"`
	Or         []Match `json:"or,omitempty"`
	And        []Match `json:"and,omitempty"`
	// Not holds when its rule does not; the generator writes the
	// catalog's negative look-aheads, which RE2 lacks, with it.
	Not *Match `json:"not,omitempty"`
}

// Parse reads a snapshot, refusing unknown fields so that a snapshot
// written by a newer generator is not half read.
func Parse(data []byte) (*Catalog, error) {
	var c Catalog
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("parse price catalog: %w", err)
	}
	return &c, nil
}

// Write writes a snapshot as JSON with one model per line, so that a
// refresh reads as a diff of the models that changed.
func Write(w io.Writer, c *Catalog) error {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	// write encodes v without its trailing newline and, when cut is
	// set, without the closing of its last (empty) list field, which
	// the caller writes line by line.
	write := func(v any, cut string) error {
		n := out.Len()
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("write price catalog: %w", err)
		}
		b := bytes.TrimSuffix(out.Bytes()[n:], []byte{'\n'})
		if cut != "" && !bytes.HasSuffix(b, []byte(cut)) {
			return fmt.Errorf("write price catalog: unexpected form %.40q", b)
		}
		out.Truncate(n + len(b) - len(cut))
		return nil
	}
	head := *c
	head.Providers = nil
	if err := write(head, `,"providers":null}`); err != nil {
		return err
	}
	out.WriteString(",\n\"providers\":[\n")
	for i, p := range c.Providers {
		models := p.Models
		p.Models = nil
		if err := write(p, `,"models":null}`); err != nil {
			return err
		}
		out.WriteString(",\"models\":[\n")
		for j, m := range models {
			if err := write(m, ""); err != nil {
				return err
			}
			if j < len(models)-1 {
				out.WriteByte(',')
			}
			out.WriteByte('\n')
		}
		out.WriteString("]}")
		if i < len(c.Providers)-1 {
			out.WriteByte(',')
		}
		out.WriteByte('\n')
	}
	out.WriteString("]}\n")
	_, err := w.Write(out.Bytes())
	return err
}
