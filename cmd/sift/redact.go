package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/agentsift/sift/cmd/sift/internal/app"
)

// redactUsage is the usage line of `sift redact`.
const redactUsage = "redact --reapply   apply today's redaction rules to everything already stored (summaries, events, usage, notes)"

// runRedact implements `sift redact --reapply`.
func runRedact(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("redact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	reapply := fs.Bool("reapply", false, "redact what is already stored with today's rules")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "redact", err)
	}
	if !*reapply {
		return fail(stderr, "redact", errors.New("nothing to do: give --reapply (usage: sift "+redactUsage+")"))
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "redact", err)
	}
	defer st.Close()
	ctx, stop := signalContext()
	defer stop()
	counts, err := st.ReapplyRedaction(ctx, app.Redactor())
	total := 0
	for _, c := range counts {
		total += c.Values
	}
	fmt.Fprintf(stdout, "redaction reapplied: %s changed\n", plural(total, "value"))
	for _, c := range counts {
		fmt.Fprintf(stdout, "  %-24s %s in %s\n", c.Table, plural(c.Values, "value"), plural(c.Rows, "row"))
	}
	if err != nil {
		return fail(stderr, "redact", err)
	}
	return 0
}
