package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/agentsift/sift/core/export"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

const reportUsage = "report [--since 24h] [--format md|html|json]   the morning in one page: outcomes, cost, flags, stalls, follow-ups, decisions"

// runReport implements `sift report [--since D] [--format md|html|json]`.
func runReport(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	since := fs.String("since", "24h", "runs active within this duration (90m, 36h, 7d)")
	format := fs.String("format", "md", "md (Markdown), html (one self-contained page) or json")
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
	w := bufio.NewWriterSize(stdout, 64<<10)
	if err := writeReport(context.Background(), st, now, from, *format, w); err != nil {
		return fail(stderr, "report", err)
	}
	if err := w.Flush(); err != nil {
		return fail(stderr, "report", err)
	}
	return 0
}

// writeReport reads what the report needs from the store and writes it.
func writeReport(ctx context.Context, st *store.Store, now, since time.Time, format string, w io.Writer) error {
	r, err := buildReport(ctx, st, now, since)
	if err != nil {
		return err
	}
	switch format {
	case "html":
		return r.WriteHTML(w)
	case "json":
		return r.WriteJSON(w)
	}
	return r.WriteMarkdown(w)
}

// buildReport reads the sessions active since the start of the window
// and their decision history, and the open follow-ups (those sift
// followups lists) with their resume commands.
func buildReport(ctx context.Context, st *store.Store, now, since time.Time) (*export.Report, error) {
	in := export.ReportInput{Now: now, Since: since, History: map[review.SessionKey][]review.Decision{}}
	page, err := st.ListSessions(ctx, review.Query{Since: since, Full: true})
	if err != nil {
		return nil, err
	}
	in.Sessions = page.Sessions
	for i := range in.Sessions {
		k := in.Sessions[i].Key()
		if in.History[k], err = st.Decisions(ctx, k); err != nil {
			return nil, err
		}
	}
	fus, err := st.Followups(ctx)
	if err != nil {
		return nil, err
	}
	for i := range fus {
		in.Followups = append(in.Followups, export.ReportFollowup{Followup: fus[i], Resume: resumeOf(&fus[i])})
	}
	return export.BuildReport(in), nil
}
