package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/textsafe"

	"github.com/agentsift/sift/store"
)

// purgeUsage is the usage line of `sift purge`.
const purgeUsage = "purge SESSION [--yes]   remove a session everywhere (rows, decisions, its capture file); without --yes, show what would go"

// runPurge implements `sift purge SESSION [--yes]`. Without --yes it
// prints what it would remove and exits 1.
func runPurge(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("purge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	yes := fs.Bool("yes", false, "remove it (without: only show what would be removed)")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return fail(stderr, "purge", fmt.Errorf("%w (usage: sift %s)", err, purgeUsage))
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "purge", err)
	}
	defer st.Close()
	ctx := context.Background()
	key, err := st.ResolveSession(ctx, pos[0])
	if wi, file, ok := strings.Cut(pos[0], "/"); errors.Is(err, store.ErrNotFound) && ok && wi != "" && file != "" {
		// A session without a summary (swept, or never summarized) may
		// still have rows and a file: name it in full.
		key, err = review.SessionKey{WorkItemID: wi, FileName: file}, nil
	}
	if err != nil {
		return fail(stderr, "purge", err)
	}
	plan, err := st.PlanPurge(ctx, key, sf.Owns)
	if err != nil {
		return fail(stderr, "purge", err)
	}
	if !*yes {
		fmt.Fprintf(stdout, "sift purge would remove %s:\n", textsafe.Inert(key.String()))
		printPlan(stdout, plan, nil)
		fmt.Fprintln(stdout, "nothing was removed; run again with --yes to remove it")
		return 1
	}
	res, err := st.Purge(ctx, plan, app.RemoveOwned)
	fmt.Fprintf(stdout, "purged %s:\n", textsafe.Inert(key.String()))
	printPlan(stdout, res.PurgePlan, &res)
	if err != nil {
		return fail(stderr, "purge", err)
	}
	return 0
}

// printPlan lists a purge's rows and files; res is nil before the purge.
func printPlan(w io.Writer, p store.PurgePlan, res *store.PurgeResult) {
	for _, r := range []struct {
		what string
		n    int
	}{
		{"summary", p.Summaries}, {"review events", p.ReviewEvents}, {"ingest index", p.IndexRows},
		{"cost rows", p.CostRows}, {"decisions", p.Decisions}, {"usage rows", p.UsageRows},
	} {
		fmt.Fprintf(w, "  %-14s %d\n", r.what, r.n)
	}
	for _, f := range p.Files {
		var what string
		switch {
		case f.Err != nil:
			what = "could not be deleted (" + f.Err.Error() + "); remembered as purged, so imports skip it"
		case f.Delete && res == nil:
			what = "will be deleted (sift's own capture file)"
		case f.Delete:
			what = "deleted (sift's own capture file)"
		default:
			what = "kept on disk (" + textsafe.Inert(f.Why) + "); remembered as purged, so imports skip it"
		}
		fmt.Fprintf(w, "  file %s: %s\n", textsafe.Inert(f.Path), what)
	}
}
