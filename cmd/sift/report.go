package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/export"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"
)

const reportUsage = "report [--since 24h] [--format md|html|json] [--fail-on QUERY]   the morning in one page: to review, outcomes, cost, stalls, follow-ups, decisions"

// runReport implements `sift report [--since D] [--format md|html|json]
// [--fail-on QUERY]`. With --fail-on it exits 1 when a run of the window
// matches the search query, after the report, naming each on stderr.
func runReport(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	since := fs.String("since", "24h", "runs active within this duration (90m, 36h, 7d) or since this date")
	format := fs.String("format", "md", "md (Markdown), html (one self-contained page) or json")
	failOn := fs.String("fail-on", "", "exit 1 when a run of the window matches this search `QUERY` (sift help search), naming each on stderr")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "report", err)
	}
	if *format != "md" && *format != "html" && *format != "json" {
		return fail(stderr, "report", fmt.Errorf("unknown --format %q (want md, html or json)", *format))
	}
	now := time.Now()
	from, err := parseSinceTime(*since, now)
	if err != nil {
		return fail(stderr, "report", err)
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "report", err)
	}
	defer st.Close()
	ctx := context.Background()
	// The query is checked before the report is written: a malformed one
	// is an error (exit 2), not a pass.
	var matched []review.Session
	if *failOn != "" {
		if _, err := st.IndexMissing(ctx); err != nil {
			return fail(stderr, "report", err)
		}
		q := review.Query{Since: from, Search: *failOn, Reviewer: reviewerOf("", sf.Cfg.Reviewer), Sort: review.SortTriage}
		if matched, err = allSessions(ctx, st, q); err != nil {
			return fail(stderr, "report", fmt.Errorf("--fail-on: %w", err))
		}
	}
	w := bufio.NewWriterSize(stdout, 64<<10)
	if err := app.WriteReport(ctx, st, now, from, *format, w); err != nil {
		return fail(stderr, "report", err)
	}
	if err := w.Flush(); err != nil {
		return fail(stderr, "report", err)
	}
	if len(matched) == 0 {
		return 0
	}
	fmt.Fprintf(stderr, "sift report: --fail-on %s matched %s:\n", textsafe.Inert(*failOn), plural(len(matched), "run"))
	for i := range matched {
		s := &matched[i]
		fmt.Fprintf(stderr, "  %s  %s  %s\n", textsafe.Inert(s.Key().String()), export.Outcome(&s.Summary), textsafe.Inert(s.AgentKind))
	}
	return 1
}

// allSessions are every session a query selects, page by page.
func allSessions(ctx context.Context, st *store.Store, q review.Query) ([]review.Session, error) {
	const page = 1000
	var out []review.Session
	for q.Offset = 0; ; q.Offset += page {
		q.Limit = page
		p, err := st.ListSessions(ctx, q)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Sessions...)
		if len(p.Sessions) < page {
			return out, nil
		}
	}
}
