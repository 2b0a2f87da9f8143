package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"
)

// runSweep implements `sift sweep [--status]`: one retention pass.
func runSweep(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	status := fs.Bool("status", false, "print when the last successful sweep ran, and sweep nothing")
	days := boundedInt(fs, "retained-days", config.RetainedDaysMax,
		"delete stream files older than this many days, 0 keeps them (default: the configuration's RetainedDays)")
	maxMb := boundedInt(fs, "max-total-size-mb", config.TotalSizeMbMax,
		"delete the oldest stream files until under this size, 0 disables (default: the configuration's MaxTotalSizeMb)")
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
		n, size := logsUsage(sf.logs)
		fmt.Fprintf(stdout, "logs: %d files, %s in %s; keep %s, cap %s\n", n, mb(size), textsafe.Inert(sf.logs),
			orZero(sf.cfg.RetainedDays, "days", "forever"), orZero(sf.cfg.MaxTotalSizeMb, "MB", "none"))
		if w := rootWarning(capture.CheckSweepRoot(sf.logs)); w != "" {
			fmt.Fprintf(stderr, "sift sweep: warning: %s\n", textsafe.Inert(w))
		}
		return 0
	}
	if days.set {
		sf.cfg.RetainedDays = days.n
	}
	if maxMb.set {
		sf.cfg.MaxTotalSizeMb = maxMb.n
	}
	res, err := sweepOnce(ctx, st, sf)
	fmt.Fprintf(stdout, "swept %d files (%s, %d by the size cap), kept %d (%s); review events %d, summaries %d, decisions %d; %d batches in %s\n",
		res.FilesDeleted, mb(res.BytesDeleted), res.FilesBySize, res.FilesKept, mb(res.BytesKept),
		res.Data.EventsDeleted, res.Data.SummariesSwept, res.Data.DecisionsSwept, res.Batches+res.Data.Batches,
		res.Elapsed.Round(time.Millisecond))
	if w := sweepWarning(res); w != "" {
		fmt.Fprintf(stderr, "sift sweep: warning: %s\n", textsafe.Inert(w))
	}
	if err != nil {
		failures := res.failures()
		for _, f := range failures {
			fmt.Fprintf(stderr, "sift sweep: FAILED: %s\n", textsafe.Inert(f))
		}
		return fail(stderr, "sweep", fmt.Errorf("%d failure(s); the last successful sweep stays recorded as before", len(failures)))
	}
	return 0
}

// sweepReport is one retention pass: the logs folder's stream files
// (core/capture) and the review data (store).
type sweepReport struct {
	capture.SweepResult
	Data    store.SweepResult
	Elapsed time.Duration
}

// failures lists what the pass could not clean, one line each.
func (r sweepReport) failures() []string {
	var out []string
	for _, f := range r.Failures {
		out = append(out, f.String())
	}
	for _, f := range r.Data.Failures {
		out = append(out, f.String())
	}
	return out
}

// sweepOnce runs one retention pass with the configuration of sf: the
// stream files of the logs folder first, the store telling the sweep which
// files its flagged sessions and open follow-ups keep longer and
// forgetting those it deleted, then the review data. Only a pass without
// failure is recorded as the last successful sweep.
func sweepOnce(ctx context.Context, st *store.Store, sf *storeFlags) (sweepReport, error) {
	began := time.Now()
	var res sweepReport
	var errs []error
	r := sf.retention()
	keep, err := st.KeptFiles(ctx, r)
	if err == nil {
		spec := sf.sweepSpec()
		spec.Keep, spec.Forget = keep, st.ForgetFiles
		res.SweepResult, err = capture.Sweep(ctx, spec)
	} else {
		// Without the files to keep, no file is swept.
		res.Failures = append(res.Failures, capture.Failure{Path: sf.logs, Reason: err.Error()})
	}
	if err != nil {
		errs = append(errs, err)
	}
	if res.Data, err = st.Sweep(ctx, r); err != nil {
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		if err := st.RecordSweep(ctx, res.Data.Started); err != nil {
			errs = append(errs, err)
		}
	}
	res.Elapsed = time.Since(began)
	if len(errs) > 0 {
		return res, fmt.Errorf("sweep: %w", errors.Join(errs...))
	}
	return res, nil
}

// intFlag is an integer flag that knows whether it was given.
type intFlag struct {
	n   int
	set bool
}

// boundedInt registers an integer flag that must be from 0 to limit: the
// same ranges the configuration file has, so that a flag cannot wrap a
// duration or a byte count either.
func boundedInt(fs *flag.FlagSet, name string, limit int, usage string) *intFlag {
	f := &intFlag{}
	fs.Func(name, usage, func(v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return errors.New("must be a whole number")
		}
		if n < 0 || n > limit {
			return fmt.Errorf("must be from 0 to %d", limit)
		}
		f.n, f.set = n, true
		return nil
	})
	return f
}

// sweepWarning is the one line to show when a sweep skipped the logs
// folder, or "".
func sweepWarning(res sweepReport) string { return rootWarning(res.LogsRefused) }

// rootWarning says why a logs folder is not swept and what to do about
// it, in one line; "" when err is not a refusal.
func rootWarning(err error) string {
	var re *capture.RootError
	if !errors.As(err, &re) {
		return ""
	}
	var hint string
	switch re.Problem {
	case capture.RootUnmarked:
		hint = "run `sift init-logs " + quoteArg(re.Dir) + "` to let sift sweep it"
	case capture.RootSymlink:
		hint = "point Path (or --logs) at the folder itself, not a link to it"
	default:
		hint = "set Path in the configuration (or --logs) to a folder of its own"
	}
	return fmt.Sprintf("logs folder %s not swept: %s; %s", quoteArg(re.Dir), re.Reason(), hint)
}

// quoteArg quotes a path for a command line a user may paste: as it is
// when it needs no quoting, else in single quotes, or Go-quoted when it
// holds characters that are not printable.
func quoteArg(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-") == "" {
		return s
	}
	if !strconv.CanBackquote(s) || strings.ContainsRune(s, '`') {
		return strconv.Quote(s)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// logsUsage counts the stream files of the capture layout under the logs
// folder (the files the sweep manages) and their size. It follows no
// link.
func logsUsage(root string) (int, int64) {
	var n int
	var size int64
	top, err := os.ReadDir(root)
	if err != nil {
		return 0, 0
	}
	for _, d := range top {
		if d.Type() != os.ModeDir || !capture.IsWorkItemDir(d.Name()) {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(root, d.Name()))
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !capture.IsLayoutPath(d.Name()+"/"+e.Name()) {
				continue
			}
			if info, err := e.Info(); err == nil {
				n++
				size += info.Size()
			}
		}
	}
	return n, size
}

// orZero renders a setting where 0 means none: "14 days" or the word.
func orZero(n int, unit, zero string) string {
	if n == 0 {
		return zero
	}
	return fmt.Sprintf("%d %s", n, unit)
}
