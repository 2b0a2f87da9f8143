package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/pricing"
	"github.com/agentsift/sift/core/textsafe"
)

const pricesUsage = "prices [MODEL…] [--json] [--config PATH] [--pricing FILE]   the price catalog, or what sift charges for a model and why"

// runPrices implements `sift prices [MODEL…] [--json] [--config PATH]
// [--pricing FILE]`: without a model, the catalog with its provenance;
// with models, what sift charges for each and where the number comes
// from. A model nothing prices is "unknown: no price" and exit status 1.
func runPrices(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("prices", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	conf := fs.String("config", "", "configuration file whose Prices key is laid over the catalog (default <user config dir>/sift/config.yaml)")
	file := fs.String("pricing", "", "price file laid over the configuration's prices, as sift summary --pricing reads it")
	names, err := parseArgs(fs, args, -1)
	if err != nil {
		return fail(stderr, "prices", err)
	}
	cfg, err := config.Resolve(*conf)
	if err != nil {
		return fail(stderr, "prices", err)
	}
	tb := cfg.PriceTable()
	if *file != "" {
		o, err := config.LoadPrices(*file)
		if err != nil {
			return fail(stderr, "prices", err)
		}
		tb = tb.With(o, *file)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if len(names) == 0 {
		if err := listPrices(w, tb, *asJSON); err != nil {
			return fail(stderr, "prices", err)
		}
		return 0
	}
	code := 0
	enc := textsafe.NewEncoder(w)
	for i, name := range names {
		m, mt, ok := tb.Resolve(name)
		if !ok {
			code = 1
		}
		if *asJSON {
			if err := enc.Encode(priceAnswer(tb, name, m, mt, ok)); err != nil {
				return fail(stderr, "prices", err)
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		writeCharge(w, tb, m, mt, ok)
	}
	return code
}

// listPrices prints the catalog: its provenance, then one row per model
// with its standard rates on the catalog's date.
func listPrices(w io.Writer, tb *pricing.Table, asJSON bool) error {
	models := tb.Models()
	if asJSON {
		out := struct {
			Catalog catalogView `json:"catalog"`
			Models  []modelView `json:"models"`
		}{catalogOf(tb), make([]modelView, 0, len(models))}
		for _, m := range models {
			out.Models = append(out.Models, viewModel(m))
		}
		enc := textsafe.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, l := range provenance(tb) {
		fmt.Fprintln(w, textsafe.Inert(l))
	}
	fmt.Fprintln(w, "rates     USD per million tokens, standard tier, first context band, on "+textsafe.Inert(tb.Date))
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PROVIDER\tMODEL\tINPUT\tOUTPUT\tCACHE READ\tWRITE 5M\tWRITE 1H\tNOTES")
	for _, m := range models {
		rs, err := m.Rates(time.Time{}, pricing.Standard)
		if err != nil {
			continue
		}
		cells := []string{listedProvider(m), m.ID, num(rs.Input.Base), num(rs.Output.Base), num(rs.CacheRead.Base),
			num(rs.CacheWrite.Base), num(rs.CacheWrite1h.Base), strings.Join(notes(m, rs), "; ")}
		for i, c := range cells {
			cells[i] = textsafe.Inert(c)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// provenance describes the catalog in a few lines.
func provenance(tb *pricing.Table) []string {
	lines := []string{fmt.Sprintf("catalog   %s %s (%s), published %s, snapshot %s", tb.Source, tb.Version, tb.Licence, tb.Published, tb.Date)}
	if tb.Integrity != "" {
		lines = append(lines, "          "+tb.Tarball+" "+tb.Integrity)
	}
	return lines
}

// listedProvider is the provider column: the catalog provider, or the
// list a model comes from.
func listedProvider(m pricing.Model) string {
	switch m.Source {
	case pricing.FromOverride:
		return "(override)"
	case pricing.FromSupplement:
		return "(sift)"
	}
	return m.Provider
}

// notes lists what the rate columns do not show: context bands, service
// tiers, other price periods and where a price not from the catalog was
// read.
func notes(m pricing.Model, rs pricing.Rates) []string {
	var out []string
	for i, b := range rs.Input.Above {
		o := rs.Output.At(b.Tokens + 1)
		out = append(out, fmt.Sprintf("prompt >%s: in %s out %s", kTokens(b.Tokens), num(rs.Input.Above[i].Price), num(o)))
	}
	for _, t := range m.ServiceTiers() {
		if trs, err := m.Rates(time.Time{}, t); err == nil {
			out = append(out, fmt.Sprintf("%s: in %s out %s", t, num(trs.Input.Base), num(trs.Output.Base)))
		}
	}
	if ps := m.Periods(); len(ps) > 1 {
		out = append(out, periodNote(ps))
	}
	if m.Source != pricing.FromCatalog {
		out = append(out, m.Origin)
	}
	return out
}

// periodNote summarises a model's price periods by their input rate.
func periodNote(ps []pricing.Period) string {
	var parts []string
	for _, p := range ps {
		switch {
		case p.Daily != nil:
			parts = append(parts, p.Daily.String()+": in "+rateText(p.Rates.Input))
		case !p.Since.IsZero():
			parts = append(parts, "from "+p.Since.Format(time.DateOnly)+": in "+rateText(p.Rates.Input))
		default:
			parts = append(parts, "otherwise in "+rateText(p.Rates.Input))
		}
	}
	return "periods " + strings.Join(parts, "; ")
}

// writeCharge prints what sift charges for one model and why.
func writeCharge(w io.Writer, tb *pricing.Table, m pricing.Model, mt pricing.Match, ok bool) {
	if !ok {
		fmt.Fprintln(w, textsafe.Inert(mt.Name)+": unknown: no price")
		if len(mt.Candidates) > 0 {
			fmt.Fprintln(w, textsafe.Inert("  listed at different prices by "+strings.Join(mt.Candidates, ", ")+": name one (PROVIDER/MODEL)"))
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(k, v string) { fmt.Fprintf(tw, "  %s\t%s\n", k, textsafe.Inert(v)) }
	fmt.Fprintln(tw, textsafe.Inert(mt.Name))
	id := m.ID
	if m.Provider != "" {
		id = m.Provider + "/" + m.ID
	}
	if m.Name != "" && m.Name != m.ID {
		id += " (" + m.Name + ")"
	}
	line("charged as", id)
	switch mt.Source {
	case pricing.FromOverride:
		line("price from", "override in "+mt.File)
	case pricing.FromSupplement:
		line("price from", "sift's supplement (the catalog lacks it): "+m.Origin)
	default:
		line("price from", "catalog "+tb.Source+" "+tb.Version+", snapshot "+tb.Date)
	}
	how := mt.Rule
	if mt.Family {
		how += ", as a variant of that name"
	}
	line("matched", how)
	if len(mt.Steps) > 0 {
		line("read as", mt.Form+" ("+strings.Join(mt.Steps, "; ")+")")
	}
	if mt.Via != "" {
		line("looked in", mt.Via)
	}
	rs, err := m.Rates(time.Time{}, pricing.Standard)
	if err != nil {
		line("rates", err.Error())
		tw.Flush()
		return
	}
	line("rates", "USD per million tokens, standard tier, on "+tb.Date)
	line("input", rateText(rs.Input))
	line("output", rateText(rs.Output))
	line("cache read", rateText(rs.CacheRead))
	line("cache write", rateText(rs.CacheWrite)+" (5 minutes), "+rateText(rs.CacheWrite1h)+" (1 hour)")
	if m.Context > 0 {
		line("context", strconv.FormatInt(m.Context, 10)+" tokens")
	}
	tiers := []string{"standard"}
	for _, t := range m.ServiceTiers() {
		if trs, err := m.Rates(time.Time{}, t); err == nil {
			tiers = append(tiers, fmt.Sprintf("%s (in %s, out %s)", t, rateText(trs.Input), rateText(trs.Output)))
		}
	}
	line("tiers", strings.Join(tiers, ", ")+"; no other tier is priced")
	if ps := m.Periods(); len(ps) > 1 {
		line("periods", strings.TrimPrefix(periodNote(ps), "periods "))
	}
	tw.Flush()
}

// rateText is a rate with its context bands: "3, above 200k 6".
func rateText(r pricing.Rate) string {
	s := num(r.Base)
	for _, b := range r.Above {
		s += ", prompts above " + kTokens(b.Tokens) + ": " + num(b.Price)
	}
	return s
}

// num prints a price without trailing zeros.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// kTokens prints a token count briefly: 200000 is "200k".
func kTokens(n int64) string {
	if n >= 1000 && n%1000 == 0 {
		return strconv.FormatInt(n/1000, 10) + "k"
	}
	return strconv.FormatInt(n, 10)
}

// catalogView is the catalog's provenance in JSON.
type catalogView struct {
	Source    string `json:"source"`
	Version   string `json:"version,omitempty"`
	Published string `json:"published,omitempty"`
	Date      string `json:"date"`
	Licence   string `json:"licence,omitempty"`
	Tarball   string `json:"tarball,omitempty"`
	Integrity string `json:"integrity,omitempty"`
	Unit      string `json:"unit,omitempty"`
}

func catalogOf(tb *pricing.Table) catalogView {
	return catalogView{tb.Source, tb.Version, tb.Published, tb.Date, tb.Licence, tb.Tarball, tb.Integrity, tb.Unit}
}

// modelView is one model's price list in JSON.
type modelView struct {
	Provider string                   `json:"provider,omitempty"`
	ID       string                   `json:"id"`
	Name     string                   `json:"name,omitempty"`
	Source   pricing.Source           `json:"source"`
	Origin   string                   `json:"origin,omitempty"`
	Context  int64                    `json:"context,omitempty"`
	Rates    pricing.Rates            `json:"rates"`
	Tiers    map[string]pricing.Rates `json:"tiers,omitempty"`
	Periods  []periodView             `json:"periods,omitempty"`
}

// periodView is one price period of a model with several.
type periodView struct {
	Since string        `json:"since,omitempty"`
	Daily string        `json:"daily,omitempty"`
	Rates pricing.Rates `json:"rates"`
}

func viewModel(m pricing.Model) modelView {
	v := modelView{Provider: m.Provider, ID: m.ID, Name: m.Name, Source: m.Source, Context: m.Context}
	if m.Source != pricing.FromCatalog {
		v.Origin = m.Origin
	}
	if rs, err := m.Rates(time.Time{}, pricing.Standard); err == nil {
		v.Rates = rs
	}
	for _, t := range m.ServiceTiers() {
		if rs, err := m.Rates(time.Time{}, t); err == nil {
			if v.Tiers == nil {
				v.Tiers = map[string]pricing.Rates{}
			}
			v.Tiers[string(t)] = rs
		}
	}
	if ps := m.Periods(); len(ps) > 1 {
		for _, p := range ps {
			pv := periodView{Rates: p.Rates}
			if !p.Since.IsZero() {
				pv.Since = p.Since.Format(time.DateOnly)
			}
			if p.Daily != nil {
				pv.Daily = p.Daily.String()
			}
			v.Periods = append(v.Periods, pv)
		}
	}
	return v
}

// answer is `sift prices MODEL --json`'s line for one model.
type answer struct {
	Name       string      `json:"name"`
	Known      bool        `json:"known"`
	Model      *modelView  `json:"model,omitempty"`
	Match      *matchView  `json:"match,omitempty"`
	Catalog    catalogView `json:"catalog"`
	Candidates []string    `json:"candidates,omitempty"`
}

// matchView is how a name matched, in JSON.
type matchView struct {
	Form   string         `json:"form"`
	Steps  []string       `json:"steps,omitempty"`
	Via    string         `json:"via,omitempty"`
	Rule   string         `json:"rule"`
	Family bool           `json:"family"`
	Source pricing.Source `json:"source"`
	File   string         `json:"file,omitempty"`
}

func priceAnswer(tb *pricing.Table, name string, m pricing.Model, mt pricing.Match, ok bool) answer {
	a := answer{Name: name, Known: ok, Catalog: catalogOf(tb), Candidates: mt.Candidates}
	if ok {
		v := viewModel(m)
		a.Model = &v
		a.Match = &matchView{mt.Form, mt.Steps, mt.Via, mt.Rule, mt.Family, mt.Source, mt.File}
	}
	return a
}
