package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"
)

// runUsageCmd implements `sift usage [--by day|session|project|model]
// [--since D] [--agent K] [--json]`: token totals of the imported agent
// histories, counted as ccusage counts them.
func runUsageCmd(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("usage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	by := fs.String("by", "day", "group by day, session, project or model")
	since := fs.String("since", "", "only days from this date on (YYYY-MM-DD or YYYYMMDD)")
	agent := fs.String("agent", "", "only this history (claude-history, codex-history, gemini-history)")
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "usage", err)
	}
	day, err := sinceDate(*since)
	if err != nil {
		return fail(stderr, "usage", err)
	}
	st, err := sf.open()
	if err != nil {
		return fail(stderr, "usage", err)
	}
	defer st.Close()
	ctx, stop := signalContext()
	defer stop()
	rep, err := st.Usage(ctx, store.UsageOptions{By: store.UsageBy(*by), Since: day, Agent: agents.Kind(*agent),
		Prices: sf.cfg.PriceTable()})
	if err != nil {
		return fail(stderr, "usage", err)
	}
	if *asJSON {
		enc := textsafe.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fail(stderr, "usage", err)
		}
		return 0
	}
	printUsage(stdout, rep)
	return 0
}

// sinceDate reads --since as YYYY-MM-DD; ccusage's YYYYMMDD is accepted.
func sinceDate(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	for _, layout := range []string{"2006-01-02", "20060102"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format("2006-01-02"), nil
		}
	}
	return "", fmt.Errorf("--since %q: want a date, YYYY-MM-DD or YYYYMMDD", s)
}

// printUsage prints the report as a table with a total line. Projects,
// sessions and models come from the histories: they are printed inert.
func printUsage(w io.Writer, rep store.UsageReport) {
	if len(rep.Rows) == 0 {
		fmt.Fprintln(w, "no usage recorded: import the agents' histories with `sift import --history`")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tinput\toutput\tcache create\tcache read\ttotal tokens\tcost USD\tmodels\t\n", textsafe.Inert(strings.ToUpper(string(rep.By))))
	var unpriced []string
	seen := map[string]bool{}
	line := func(key string, t store.UsageTotals, models, missing []string) {
		cost := fmt.Sprintf("%.2f", t.CostUSD)
		if len(missing) > 0 {
			cost += "*"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n", textsafe.Inert(key), t.InputTokens, t.OutputTokens,
			t.CacheCreationTokens, t.CacheReadTokens, t.TotalTokens, cost, textsafe.Inert(strings.Join(models, ",")))
	}
	for _, r := range rep.Rows {
		line(r.Key, r.UsageTotals, r.Models, r.Unpriced)
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
