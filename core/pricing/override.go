package pricing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"sort"
	"strings"
)

// Overrides is a price list laid over the catalog: the value of the
// configuration's Prices key, and the content of a `sift summary
// --pricing FILE` (YAML or JSON; keys in any case). A model it names is
// priced by it alone; a model it adds is priced like any other.
//
//	Source: our contract, 2026-11
//	Models:
//	  claude-sonnet-4-5:
//	    Input: 2.7                 # USD per million tokens
//	    Output: 13.5
//	    CacheRead: 0.27            # default: Input
//	    CacheWrite: 3.375          # 5-minute writes; default: Input
//	    CacheWrite1h: 5.4          # default: CacheWrite
//	    Above:                     # prompts above Tokens tokens
//	      - {Tokens: 200000, Input: 5.4, Output: 20.25}
//	    Batch: {Input: 1.35, Output: 6.75}   # also Flex, Priority, Fast
type Overrides struct {
	// Source and Date describe the list; a Date becomes the table's.
	Source string `json:"source,omitempty" yaml:"Source"`
	Date   string `json:"date,omitempty" yaml:"Date"`
	// Models maps a model name, matched as a catalog name is (case,
	// provider prefixes and date suffixes aside), to its price.
	Models map[string]Override `json:"models,omitempty" yaml:"Models"`
}

// Override is one model's price, in USD per million tokens. An unset
// cache price is billed as its parent (CacheWrite1h as CacheWrite,
// CacheRead and CacheWrite as Input); a CacheWrite of 0 also means
// Input, as in the price files sift read before the catalog.
type Override struct {
	Input        *float64 `json:"input,omitempty" yaml:"Input"`
	Output       *float64 `json:"output,omitempty" yaml:"Output"`
	CacheRead    *float64 `json:"cacheRead,omitempty" yaml:"CacheRead"`
	CacheWrite   *float64 `json:"cacheWrite,omitempty" yaml:"CacheWrite"`
	CacheWrite1h *float64 `json:"cacheWrite1h,omitempty" yaml:"CacheWrite1h"`
	// Above are context-length bands in ascending order of Tokens; a
	// band's unset prices keep the price below it.
	Above []OverrideBand `json:"above,omitempty" yaml:"Above"`
	// Batch, Flex, Priority and Fast are the prices of those service
	// tiers; a tier left unset has no price (sift does not guess one).
	Batch    *Override `json:"batch,omitempty" yaml:"Batch"`
	Flex     *Override `json:"flex,omitempty" yaml:"Flex"`
	Priority *Override `json:"priority,omitempty" yaml:"Priority"`
	Fast     *Override `json:"fast,omitempty" yaml:"Fast"`
	// Source says where the figures were read.
	Source string `json:"source,omitempty" yaml:"Source"`
}

// OverrideBand is the prices of requests whose prompt is above Tokens
// tokens.
type OverrideBand struct {
	Tokens       int64    `json:"tokens" yaml:"Tokens"`
	Input        *float64 `json:"input,omitempty" yaml:"Input"`
	Output       *float64 `json:"output,omitempty" yaml:"Output"`
	CacheRead    *float64 `json:"cacheRead,omitempty" yaml:"CacheRead"`
	CacheWrite   *float64 `json:"cacheWrite,omitempty" yaml:"CacheWrite"`
	CacheWrite1h *float64 `json:"cacheWrite1h,omitempty" yaml:"CacheWrite1h"`
}

// FieldError is an override value that fails validation. Key is its path
// ("Models.my-model.Input").
type FieldError struct {
	Key, Msg string
}

// Error implements error.
func (e *FieldError) Error() string { return e.Key + " " + e.Msg }

// ParseOverrides reads an override list from JSON, with keys in any case
// and no unknown key, and validates it.
func ParseOverrides(data []byte) (Overrides, error) {
	var o Overrides
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return Overrides{}, err
	}
	return o, o.Validate()
}

// Validate checks every price: finite, not negative and at most
// MaxPrice, each model setting Input or Output, bands above zero tokens
// and ascending. The error is a *FieldError.
func (o Overrides) Validate() error {
	names := make([]string, 0, len(o.Models))
	for n := range o.Models {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		key := "Models." + n
		if strings.TrimSpace(n) == "" {
			return &FieldError{Key: "Models", Msg: "has a model with an empty name"}
		}
		if err := o.Models[n].validate(key, true); err != nil {
			return err
		}
	}
	return nil
}

// validate checks one override; tiers says whether service tiers may be
// set (not inside a tier).
func (v Override) validate(key string, tiers bool) error {
	if v.Input == nil && v.Output == nil {
		return &FieldError{Key: key, Msg: "sets neither Input nor Output"}
	}
	if err := checkPrices(key, v.Input, v.Output, v.CacheRead, v.CacheWrite, v.CacheWrite1h); err != nil {
		return err
	}
	for i, b := range v.Above {
		bk := fmt.Sprintf("%s.Above[%d]", key, i)
		if b.Tokens <= 0 {
			return &FieldError{Key: bk + ".Tokens", Msg: fmt.Sprintf("must be positive (got %d)", b.Tokens)}
		}
		if i > 0 && b.Tokens <= v.Above[i-1].Tokens {
			return &FieldError{Key: bk + ".Tokens", Msg: fmt.Sprintf("must be above the band before it (got %d)", b.Tokens)}
		}
		if err := checkPrices(bk, b.Input, b.Output, b.CacheRead, b.CacheWrite, b.CacheWrite1h); err != nil {
			return err
		}
	}
	for _, t := range v.tiers() {
		if t.o == nil {
			continue
		}
		tk := key + "." + strings.ToUpper(string(t.tier[:1])) + string(t.tier[1:])
		if !tiers {
			return &FieldError{Key: tk, Msg: "is not allowed inside a service tier"}
		}
		if err := t.o.validate(tk, false); err != nil {
			return err
		}
	}
	return nil
}

// tiers lists the override's service tiers.
func (v Override) tiers() []struct {
	tier ServiceTier
	o    *Override
} {
	return []struct {
		tier ServiceTier
		o    *Override
	}{{Batch, v.Batch}, {Flex, v.Flex}, {Priority, v.Priority}, {Fast, v.Fast}}
}

// PlausibleTokens is more tokens than one run, or a report of many, counts.
// A price is refused when a request of this many tokens at each of a
// model's five rates would not cost a finite number of dollars: every
// cost of the model would be +Inf, which no summary can be stored with.
const PlausibleTokens = 1e12

// MaxPrice is the largest price accepted, in USD per million tokens.
const MaxPrice = math.MaxFloat64 / PlausibleTokens / 8

// checkPrices refuses a negative, non-finite or implausibly large price.
func checkPrices(key string, ps ...*float64) error {
	fields := []string{"Input", "Output", "CacheRead", "CacheWrite", "CacheWrite1h"}
	for i, p := range ps {
		switch {
		case p == nil:
		case math.IsNaN(*p) || math.IsInf(*p, 0):
			return &FieldError{Key: key + "." + fields[i], Msg: fmt.Sprintf("must be a finite number (got %v)", *p)}
		case *p < 0:
			return &FieldError{Key: key + "." + fields[i], Msg: fmt.Sprintf("must not be negative (got %v)", *p)}
		case *p > MaxPrice:
			return &FieldError{Key: key + "." + fields[i], Msg: fmt.Sprintf(
				"is too large (got %v): %g tokens at it would cost more than a number holds (at most %.3g USD per million tokens)",
				*p, float64(PlausibleTokens), MaxPrice)}
		}
	}
	return nil
}

// periods builds the override's one standard period.
func (v Override) periods() []Period {
	or := func(a, b *float64) *float64 {
		if a != nil {
			return a
		}
		return b
	}
	write := v.CacheWrite
	if write != nil && *write == 0 {
		write = nil // the old price files' "as Input"
	}
	rate := func(base *float64, band func(OverrideBand) *float64) *Rate {
		if base == nil {
			return nil
		}
		r := &Rate{Base: *base}
		prev := *base
		for _, b := range v.Above {
			if p := band(b); p != nil {
				prev = *p
			}
			r.Above = append(r.Above, Band{Tokens: b.Tokens, Price: prev})
		}
		return r
	}
	// A band's unset cache price follows the band's parent price when the
	// base price does too, and keeps the price below it otherwise.
	follow := func(own *float64, base *float64, parent func(OverrideBand) *float64) func(OverrideBand) *float64 {
		return func(b OverrideBand) *float64 {
			if own != nil || base != nil {
				return own
			}
			return parent(b)
		}
	}
	inBand := func(b OverrideBand) *float64 { return b.Input }
	wrBand := func(b OverrideBand) *float64 { return follow(b.CacheWrite, write, inBand)(b) }
	in := rate(v.Input, inBand)
	out := rate(v.Output, func(b OverrideBand) *float64 { return b.Output })
	read := rate(or(v.CacheRead, v.Input), func(b OverrideBand) *float64 { return follow(b.CacheRead, v.CacheRead, inBand)(b) })
	wr := rate(or(write, v.Input), wrBand)
	wr1h := rate(or(v.CacheWrite1h, or(write, v.Input)), func(b OverrideBand) *float64 {
		return follow(b.CacheWrite1h, v.CacheWrite1h, wrBand)(b)
	})
	return []Period{{Rates: rates(in, out, read, wr, wr1h)}}
}

// model builds the Model an override prices a name with.
func (v Override) model(name, file string) Model {
	m := Model{ID: name, Name: name, Source: FromOverride, Origin: file, periods: v.periods()}
	if v.Source != "" {
		m.Origin = file + " (" + v.Source + ")"
	}
	for _, t := range v.tiers() {
		if t.o != nil {
			if m.tiers == nil {
				m.tiers = map[ServiceTier][]Period{}
			}
			m.tiers[t.tier] = t.o.periods()
		}
	}
	return m
}

// overKey is the form an override's name is compared in.
func overKey(name string) string { return foldName(strings.ToLower(strings.TrimSpace(name))) }

// With returns a table with o's models laid over t's: a model o names is
// priced by o, file being where o was read (for `sift prices`). Layers
// stack: a later one wins. o must be valid (Validate).
func (t *Table) With(o Overrides, file string) *Table {
	n := *t
	n.memo = &memo{}
	n.over = maps.Clone(t.over)
	if n.over == nil {
		n.over = map[string]overEntry{}
	}
	for name, v := range o.Models {
		n.over[overKey(name)] = overEntry{v.model(name, file), file}
	}
	if o.Date != "" {
		n.Date = o.Date
	}
	return &n
}

// overEntry is one overriding model and the file it was read from.
type overEntry struct {
	m    Model
	file string
}

// override looks the forms of a name up in the overrides.
func (t *Table) override(forms []form) (overEntry, form, bool) {
	for _, f := range forms {
		if o, ok := t.over[overKey(f.name)]; ok {
			return o, f, true
		}
	}
	return overEntry{}, form{}, false
}
