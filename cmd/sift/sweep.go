package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/agentsift/sift/core/textsafe"
)

// runSweep implements `sift sweep [--status]`: one retention pass.
func runSweep(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	status := fs.Bool("status", false, "print when the last successful sweep ran, and sweep nothing")
	days := fs.Int("retained-days", -1, "delete stream files older than this many days, 0 keeps them (default: the configuration's RetainedDays)")
	maxMb := fs.Int("max-total-size-mb", -1, "delete the oldest stream files until under this size, 0 disables (default: the configuration's MaxTotalSizeMb)")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "sweep", err)
	}
	st, err := sf.open()
	if err != nil {
		return fail(stderr, "sweep", err)
	}
	defer st.Close()
	ctx := context.Background()
	if *status {
		t, err := st.LastSweep(ctx)
		if err != nil {
			return fail(stderr, "sweep", err)
		}
		if t.IsZero() {
			fmt.Fprintln(stdout, "last successful sweep: never")
		} else {
			fmt.Fprintf(stdout, "last successful sweep: %s (%s ago)\n", t.Local().Format(time.RFC3339),
				time.Since(t).Round(time.Second))
		}
		r := sf.retention()
		n, size := logsUsage(r.LogsRoot)
		fmt.Fprintf(stdout, "logs: %d files, %s in %s; keep %s, cap %s\n", n, mb(size), textsafe.Inert(r.LogsRoot),
			orZero(r.RetainedDays, "days", "forever"), orZero(r.MaxTotalSizeMb, "MB", "none"))
		return 0
	}
	r := sf.retention()
	if *days >= 0 {
		r.RetainedDays = *days
	}
	if *maxMb >= 0 {
		r.MaxTotalSizeMb = *maxMb
	}
	res, err := st.Sweep(ctx, r)
	fmt.Fprintf(stdout, "swept %d files (%s, %d by the size cap), kept %d (%s); review events %d, summaries %d, decisions %d; %d batches in %s\n",
		res.FilesDeleted, mb(res.BytesDeleted), res.FilesBySize, res.FilesKept, mb(res.BytesKept),
		res.EventsDeleted, res.SummariesSwept, res.DecisionsSwept, res.Batches, res.Elapsed.Round(time.Millisecond))
	if err != nil {
		for _, f := range res.Failures {
			fmt.Fprintf(stderr, "sift sweep: FAILED: %s\n", textsafe.Inert(f.String()))
		}
		return fail(stderr, "sweep", fmt.Errorf("%d failure(s); the last successful sweep stays recorded as before", len(res.Failures)))
	}
	return 0
}

// logsUsage counts the stream files under the logs folder and their size.
func logsUsage(root string) (int, int64) {
	var n int
	var size int64
	filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			n++
			size += info.Size()
		}
		return nil
	})
	return n, size
}

// orZero renders a setting where 0 means none: "14 days" or the word.
func orZero(n int, unit, zero string) string {
	if n == 0 {
		return zero
	}
	return fmt.Sprintf("%d %s", n, unit)
}
