package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/textsafe"
)

// runWorkItem implements `sift workitem retry|done ID`.
func runWorkItem(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("workitem", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	pos, err := parseArgs(fs, args, 2)
	if err != nil {
		return fail(stderr, "workitem", fmt.Errorf("%w (usage: sift workitem retry|done ID)", err))
	}
	verb, id := pos[0], pos[1]
	if verb != "retry" && verb != "done" {
		return fail(stderr, "workitem", fmt.Errorf("unknown action %q (want retry or done)", verb))
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "workitem", err)
	}
	defer st.Close()
	ctx := context.Background()
	if verb == "retry" {
		if err := st.RetryWorkItem(ctx, id); err != nil {
			return fail(stderr, "workitem", err)
		}
		fmt.Fprintf(stdout, "work item %s: summaries invalidated; they are recomputed at `sift workitem done %s`\n",
			textsafe.Inert(id), textsafe.Inert(id))
		return 0
	}
	res, err := ingest.CompleteWorkItem(ctx, st, id, []string{sf.Logs}, sf.ImportOptions())
	fmt.Fprintf(stdout, "work item %s done: ", textsafe.Inert(id))
	return reportImport(stdout, stderr, "workitem", res, err)
}
