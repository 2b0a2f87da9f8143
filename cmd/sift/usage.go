package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/core/usage"
)

// runUsageCmd implements `sift usage [--agent claude|codex|gemini|all]
// [--by day|week|month|session|project|model] [--since D] [--until D]
// [--timezone TZ] [--json | --format table|json|ccusage]`: token totals of
// the imported agent histories, counted as ccusage counts them except
// where sift's accounting rules deliberately differ (a Codex fork's copy
// of its parent, a repeated token_count: core/agents/codex_tokens.go).
func runUsageCmd(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("usage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	by := fs.String("by", "day", "group by day, week, month, session, project or model")
	since := fs.String("since", "", "only days from this date on (YYYY-MM-DD or YYYYMMDD)")
	until := fs.String("until", "", "only days up to this date, inclusive (YYYY-MM-DD or YYYYMMDD)")
	zone := fs.String("timezone", "", "the time zone days are read in (IANA name; default: local time)")
	agent := fs.String("agent", "all", "only this harness's history: "+usageAgentNames())
	asJSON := fs.Bool("json", false, "print JSON (the same as --format json)")
	format := fs.String("format", "table", "table, json, or ccusage (the JSON of `ccusage daily|weekly|monthly --json`)")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "usage", err)
	}
	opt, err := usageOptions(*by, *since, *until, *zone, *agent)
	if err != nil {
		return fail(stderr, "usage", err)
	}
	if *asJSON && *format == "table" {
		*format = "json"
	}
	switch {
	case *format != "table" && *format != "json" && *format != "ccusage":
		return fail(stderr, "usage", fmt.Errorf("--format %q: want table, json or ccusage", *format))
	case *format == "ccusage" && ccusageKey(opt.By) == "":
		return fail(stderr, "usage", fmt.Errorf("--format ccusage groups by day, week or month, not %s", opt.By))
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "usage", err)
	}
	defer st.Close()
	ctx, stop := signalContext()
	defer stop()
	opt.Prices = sf.Cfg.PriceTable()
	rep, err := app.Usage(ctx, st, opt)
	if err != nil {
		return fail(stderr, "usage", err)
	}
	var out any = rep
	switch *format {
	case "table":
		printUsage(stdout, rep)
		return 0
	case "ccusage":
		out = ccusageReport(rep)
	}
	enc := textsafe.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fail(stderr, "usage", err)
	}
	return 0
}

// usageAgent returns the history --agent names: that of a harness that
// keeps one (its entry's History), also named by the history's own kind;
// "" for all.
func usageAgent(agent string) (agents.Kind, bool) {
	if agent == "all" || agent == "" {
		return "", true
	}
	for _, h := range agents.Harnesses() {
		if h.History != nil && (agent == string(h.Kind) || agent == string(h.History.Parser.Kind())) {
			return h.History.Parser.Kind(), true
		}
	}
	return "", false
}

// usageAgentNames lists the values of --agent: "claude, codex, gemini or
// all".
func usageAgentNames() string {
	var names []string
	for _, h := range agents.Harnesses() {
		if h.History != nil {
			names = append(names, string(h.Kind))
		}
	}
	return strings.Join(names, ", ") + " or all"
}

// usageOptions reads the flags of `sift usage` that choose the totals.
func usageOptions(by, since, until, zone, agent string) (usage.Options, error) {
	opt := usage.Options{By: usage.By(by)}
	kind, ok := usageAgent(agent)
	if !ok {
		return opt, fmt.Errorf("--agent %q: want %s", agent, usageAgentNames())
	}
	opt.Agent = kind
	var err error
	if opt.Since, err = sinceDate("--since", since); err != nil {
		return opt, err
	}
	if opt.Until, err = sinceDate("--until", until); err != nil {
		return opt, err
	}
	if zone != "" {
		if opt.Location, err = time.LoadLocation(zone); err != nil {
			return opt, fmt.Errorf("--timezone %q: %w", zone, err)
		}
	}
	return opt, nil
}

// sinceDate reads a date flag as YYYY-MM-DD; ccusage's YYYYMMDD is
// accepted.
func sinceDate(name, s string) (string, error) {
	if s == "" {
		return "", nil
	}
	for _, layout := range []string{"2006-01-02", "20060102"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format("2006-01-02"), nil
		}
	}
	return "", fmt.Errorf("%s %q: want a date, YYYY-MM-DD or YYYYMMDD", name, s)
}

// printUsage prints the report as a table with a total line. Projects,
// sessions and models come from the histories: they are printed inert.
func printUsage(w io.Writer, rep usage.Report) {
	if len(rep.Rows) == 0 {
		fmt.Fprintln(w, "no usage recorded: import the agents' histories with `sift import --history`")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tinput\toutput\tcache create\tcache read\ttotal tokens\tcost USD\tmodels\t\n", textsafe.Inert(strings.ToUpper(string(rep.By))))
	var unpriced []string
	seen := map[string]bool{}
	line := func(key string, t usage.Totals, models, missing []string) {
		cost := fmt.Sprintf("%.2f", t.CostUSD)
		if len(missing) > 0 {
			cost += "*"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n", textsafe.Inert(key), t.InputTokens, t.OutputTokens,
			t.CacheCreationTokens, t.CacheReadTokens, t.TotalTokens, cost, textsafe.Inert(strings.Join(models, ",")))
	}
	for _, r := range rep.Rows {
		line(r.Key, r.Totals, r.Models, r.Unpriced)
		for _, m := range r.Unpriced {
			if !seen[m] {
				seen[m] = true
				unpriced = append(unpriced, m)
			}
		}
	}
	line("total", rep.Totals, nil, unpriced)
	tw.Flush()
	if len(unpriced) > 0 {
		fmt.Fprintf(w, "* without the calls of models the price table does not know: %s\n", textsafe.Inert(strings.Join(unpriced, ", ")))
	}
}
