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
	"github.com/agentsift/sift/store"
)

// usageUsage is the usage line of `sift usage`.
const usageUsage = "usage [--by day|week|month|block|session|project|model] [--source all|captures|histories] [--since 24h|DATE] [--until DATE] [--agent K] [--json]   token totals and cost of every stored run (captures and the agents' histories)"

// runUsageCmd implements `sift usage [--source all|captures|histories]
// [--agent K|all] [--by day|week|month|block|session|project|model]
// [--since D] [--until D] [--timezone TZ] [--json | --format
// table|json|ccusage]`: token totals of the stored runs, each session
// counted with the tokens the inbox shows for it, and for the histories
// as ccusage counts them except where sift's accounting rules
// deliberately differ (a message repeated without a request id, a Codex
// fork's copy of its parent, a repeated token_count:
// core/agents/codex/tokens.go).
func runUsageCmd(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("usage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	by := fs.String("by", "day", "group by day, week, month, block (5-hour billing blocks), session, project or model")
	source := fs.String("source", "all", "count the captured runs, the agents' histories, or all")
	since := fs.String("since", "", "only calls from then on: a duration back from now (90m, 24h, 7d) or a date (YYYY-MM-DD, YYYYMMDD)")
	until := fs.String("until", "", "only calls up to this date, inclusive (YYYY-MM-DD or YYYYMMDD)")
	zone := fs.String("timezone", "", "the time zone days are read in (IANA name; default: local time)")
	agent := fs.String("agent", "all", "only this harness's runs: "+usageAgentNames())
	asJSON := fs.Bool("json", false, "print JSON (the same as --format json)")
	format := fs.String("format", "table", "table, json, or ccusage (the JSON of \"ccusage daily|weekly|monthly --json\")")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "usage", err)
	}
	opt, err := usageOptions(usageFlags{by: *by, source: *source, since: *since, until: *until, zone: *zone, agent: *agent}, time.Now())
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
	rep, bad, err := app.Usage(ctx, st, opt)
	if err != nil {
		return fail(stderr, "usage", err)
	}
	if len(bad) > 0 {
		fmt.Fprintf(stderr, "sift usage: warning: %s\n", textsafe.Inert(unreadableLine(bad)))
	}
	var out any = rep
	switch *format {
	case "table":
		printUsage(stdout, rep, opt.Source)
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

// unreadableLine says in one line which stored rows the totals left out
// and why: the first three by name, then how many more.
func unreadableLine(bad []store.Unreadable) string {
	var b strings.Builder
	fmt.Fprintf(&b, "left out %s whose stored row cannot be read: ", plural(len(bad), "session"))
	for i, u := range bad {
		if i == 3 {
			fmt.Fprintf(&b, "; and %d more", len(bad)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s (%v)", u.Session, u.Err)
	}
	return b.String()
}

// usageAgent reads --agent: a harness's name, or its history's kind
// ("claude-history"); "" for all.
func usageAgent(agent string) (agents.Kind, bool) {
	if agent == "all" || agent == "" {
		return "", true
	}
	for _, h := range agents.Harnesses() {
		if agent == string(h.Kind) || h.History != nil && agent == string(h.History.Parser.Kind()) {
			return h.Kind, true
		}
	}
	return "", false
}

// usageAgentNames lists the values of --agent: "claude, codex, … or all".
func usageAgentNames() string {
	var names []string
	for _, h := range agents.Harnesses() {
		names = append(names, string(h.Kind))
	}
	return strings.Join(names, ", ") + " or all"
}

// usageFlags are the flags of `sift usage` that choose the totals.
type usageFlags struct {
	by, source, since, until, zone, agent string
}

// usageOptions reads the flags that choose the totals; now is the time
// --since's durations count back from.
func usageOptions(f usageFlags, now time.Time) (usage.Options, error) {
	opt := usage.Options{By: usage.By(f.by), Source: usage.Source(f.source), Location: time.Local}
	switch opt.Source {
	case usage.SourceAll, usage.SourceCaptures, usage.SourceHistories:
	default:
		return opt, fmt.Errorf("--source %q: want all, captures or histories", f.source)
	}
	kind, ok := usageAgent(f.agent)
	if !ok {
		return opt, fmt.Errorf("--agent %q: want %s", f.agent, usageAgentNames())
	}
	opt.Agent = kind
	var err error
	if f.zone != "" {
		if opt.Location, err = time.LoadLocation(f.zone); err != nil {
			return opt, fmt.Errorf("--timezone %q: %w", f.zone, err)
		}
	}
	if f.since != "" {
		if day, ok := usageDate(f.since, opt.Location); ok {
			opt.Since = day
		} else if opt.Since, err = parseSinceTime(f.since, now); err != nil {
			return opt, err
		}
	}
	if f.until != "" {
		day, ok := usageDate(f.until, opt.Location)
		if !ok {
			return opt, fmt.Errorf("--until %q: want a date, YYYY-MM-DD or YYYYMMDD", f.until)
		}
		// The day is included: the bound is the next midnight.
		opt.Until = day.AddDate(0, 0, 1)
	}
	return opt, nil
}

// usageDate reads a date as YYYY-MM-DD, or ccusage's YYYYMMDD: its
// midnight in the zone days are read in.
func usageDate(s string, loc *time.Location) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02", "20060102"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// printUsage prints the report as a table with a total line. Projects,
// sessions and models come from the streams: they are printed inert. An
// unknown cost is "—", never 0; a cost that leaves out calls of unknown
// cost is marked "*".
func printUsage(w io.Writer, rep usage.Report, src usage.Source) {
	if len(rep.Rows) == 0 {
		fmt.Fprintln(w, usageNone(src))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tinput\toutput\tcache create\tcache read\ttotal tokens\tcost USD\tmodels\t\n", textsafe.Inert(strings.ToUpper(string(rep.By))))
	var unpriced []string
	seen := map[string]bool{}
	line := func(key string, t usage.Totals, models []string) {
		cost := "—"
		if t.CostUSD != nil {
			cost = fmt.Sprintf("%.2f", *t.CostUSD)
			if t.UnpricedCalls > 0 {
				cost += "*"
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n", textsafe.Inert(key), t.InputTokens, t.OutputTokens,
			t.CacheCreationTokens, t.CacheReadTokens, t.TotalTokens, cost, textsafe.Inert(strings.Join(models, ",")))
	}
	for _, r := range rep.Rows {
		key := r.Key
		if r.Start != nil {
			key = r.Start.Format("2006-01-02 15:04") + "–" + r.End.Format("15:04")
		}
		line(key, r.Totals, r.Models)
		for _, m := range r.Unpriced {
			if !seen[m] {
				seen[m] = true
				unpriced = append(unpriced, m)
			}
		}
	}
	line("total", rep.Totals, nil)
	tw.Flush()
	if n := rep.Totals.UnpricedCalls; n > 0 {
		what := "no model named, or one sift has no price for"
		if len(unpriced) > 0 {
			what = "models sift has no price for: " + textsafe.Inert(strings.Join(unpriced, ", ")) + "; or none named"
		}
		fmt.Fprintf(w, "—: cost unknown; *: leaves out %d calls or captured runs of unknown cost (%s)\n", n, what)
	}
}

// usageNone says why nothing was counted, and how to import what the
// source counts.
func usageNone(src usage.Source) string {
	switch src {
	case usage.SourceCaptures:
		return "no usage recorded: no captured run reported tokens (capture with `sift run`, or `sift import` a logs folder)"
	case usage.SourceHistories:
		return "no usage recorded: import the agents' histories with `sift import --history`"
	}
	return "no usage recorded: capture runs with `sift run`, or import the agents' histories with `sift import --history`"
}
