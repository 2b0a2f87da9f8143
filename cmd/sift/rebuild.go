package main

import (
	"flag"
	"io"
	"os"

	"github.com/agentsift/sift/core/ingest"
)

// runRebuild implements `sift rebuild [PATH…]`.
func runRebuild(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rebuild", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	paths, err := parseArgs(fs, args, -1)
	if err != nil {
		return fail(stderr, "rebuild", err)
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "rebuild", err)
	}
	defer st.Close()
	if _, err := os.Stat(sf.Logs); err == nil {
		paths = append(paths, sf.Logs)
	}
	ctx, stop := signalContext()
	defer stop()
	pr := newProgressPrinter(stderr)
	res, err := ingest.Rebuild(ctx, st, paths, sf.ImportOptions(), pr.report)
	pr.done()
	return reportImport(stdout, stderr, "rebuild", res, err)
}
