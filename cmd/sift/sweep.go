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

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/layout"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"
)

// runSweep implements `sift sweep [--dry-run] [--status]`: one retention
// pass.
func runSweep(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	status := fs.Bool("status", false, "print the last sweep and its figures, and sweep nothing")
	dry := fs.Bool("dry-run", false, "list what a sweep would remove, and remove nothing")
	days := boundedInt(fs, "retained-days", config.RetainedDaysMax,
		"delete stream files older than this many `days`, 0 keeps them (default: the configuration's RetainedDays)")
	maxMb := boundedInt(fs, "max-total-size-mb", config.TotalSizeMbMax,
		"delete the oldest stream files until under this size in `MB`, 0 disables (default: the configuration's MaxTotalSizeMb)")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "sweep", err)
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "sweep", err)
	}
	defer st.Close()
	ctx := context.Background()
	if *status {
		if err := printSweepStatus(ctx, stdout, st, sf); err != nil {
			return fail(stderr, "sweep", err)
		}
		if w := app.RootWarning(layout.CheckSweepRoot(sf.Logs)); w != "" {
			fmt.Fprintf(stderr, "sift sweep: warning: %s\n", textsafe.Inert(w))
		}
		return 0
	}
	if days.set {
		sf.Cfg.RetainedDays = days.n
	}
	if maxMb.set {
		sf.Cfg.MaxTotalSizeMb = maxMb.n
	}
	if *dry {
		res, err := app.SweepDry(ctx, st, &sf.Env)
		printDryRun(stdout, res, sf)
		if w := res.Warning(); w != "" {
			fmt.Fprintf(stderr, "sift sweep: warning: %s\n", textsafe.Inert(w))
		}
		if err != nil {
			return fail(stderr, "sweep", err)
		}
		return 0
	}
	res, err := app.Sweep(ctx, st, &sf.Env, "sift sweep")
	fmt.Fprintf(stdout, "swept %s; kept %s (%s); %s; %d batches in %s\n", figures(res), plural(res.FilesKept, "file"),
		mb(res.BytesKept), plural(res.Data.WorkItemsSwept, "idle work item"), res.Batches+res.Data.Batches,
		res.Elapsed.Round(time.Millisecond))
	if w := res.Warning(); w != "" {
		fmt.Fprintf(stderr, "sift sweep: warning: %s\n", textsafe.Inert(w))
	}
	if err != nil {
		failures := res.Failures()
		for _, f := range failures {
			fmt.Fprintf(stderr, "sift sweep: FAILED: %s\n", textsafe.Inert(f))
		}
		return fail(stderr, "sweep", fmt.Errorf("%d failure(s); the last successful sweep stays recorded as before", len(failures)))
	}
	return 0
}

// printSweepStatus prints the last sweep and its figures, the last
// successful one, what the recorded sweeps removed in all, and the logs
// folder's files and settings.
func printSweepStatus(ctx context.Context, w io.Writer, st *store.Store, sf *storeFlags) error {
	run, ok, err := st.LastSweepRun(ctx)
	if err != nil {
		return err
	}
	if ok {
		fmt.Fprintf(w, "last sweep: %s by %s: removed %s; %s in %s", when(run.Started), run.Runner, runFigures(run),
			plural(run.WorkItems, "idle work item"), run.Elapsed.Round(time.Millisecond))
		if run.Failures > 0 {
			fmt.Fprintf(w, "; %s, first: %s", plural(run.Failures, "failure"), textsafe.Inert(run.FirstFailure))
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintln(w, "last sweep: never")
	}
	t, err := st.LastSweep(ctx)
	if err != nil {
		return err
	}
	if t.IsZero() {
		fmt.Fprintln(w, "last successful sweep: never")
	} else {
		fmt.Fprintf(w, "last successful sweep: %s\n", when(t))
	}
	if total, since, err := st.SweepTotals(ctx); err != nil {
		return err
	} else if !since.IsZero() {
		fmt.Fprintf(w, "removed since %s: %s\n", since.Local().Format(time.DateOnly), runFigures(total))
	}
	n, size := logsUsage(sf.Logs)
	fmt.Fprintf(w, "logs: %d files, %s in %s; keep %s, cap %s\n", n, mb(size), textsafe.Inert(sf.Logs),
		orZero(sf.Cfg.RetainedDays, "days", "forever"), orZero(sf.Cfg.MaxTotalSizeMb, "MB", "none"))
	return nil
}

// when is a past time as the status lines show it: "2026-11-30T03:00:00Z
// (3m ago)".
func when(t time.Time) string {
	return fmt.Sprintf("%s (%s ago)", t.Local().Format(time.RFC3339), time.Since(t).Round(time.Second))
}

// runFigures is what a recorded sweep removed: "2 files (1.2 MB, 1 by the
// size cap), 1 session, review events of 3 sessions".
func runFigures(r store.SweepRun) string {
	return removedFigures(r.FilesDeleted, r.BytesDeleted, r.FilesBySize, r.Sessions, r.EventSessions)
}

// removedFigures is the one description of what a sweep removed, in
// `sift sweep`, its status, and the inbox's status line.
func removedFigures(files int, bytes int64, bySize, sessions, eventSessions int) string {
	s := plural(files, "file")
	if files > 0 {
		s += " (" + mb(bytes)
		if bySize > 0 {
			s += fmt.Sprintf(", %d by the size cap", bySize)
		}
		s += ")"
	}
	return s + ", " + plural(sessions, "session") + ", review events of " + plural(eventSessions, "session")
}

// printDryRun lists what a sweep would remove.
func printDryRun(w io.Writer, res app.SweepReport, sf *storeFlags) {
	fmt.Fprintf(w, "a sweep would remove %s; nothing was removed\n", figures(res))
	if len(res.Deleted) > 0 {
		fmt.Fprintf(w, "stream files (kept %s, cap %s):\n", orZero(sf.Cfg.RetainedDays, "days", "forever"),
			orZero(sf.Cfg.MaxTotalSizeMb, "MB", "none"))
		for _, f := range res.Deleted {
			why := "older than kept"
			if f.BySize {
				why = "over the size cap"
			}
			fmt.Fprintf(w, "  %s  %s  last written %s, %s\n", textsafe.Inert(f.Path), mb(f.Size),
				f.MTime.Local().Format(time.DateOnly), why)
		}
	}
	if len(res.Data.Sessions) > 0 {
		fmt.Fprintln(w, "sessions (stream file gone, past the summaries' tier):")
		for _, s := range res.Data.Sessions {
			fmt.Fprintf(w, "  %s  last active %s  %s\n", textsafe.Inert(s.Key.String()), s.Activity.Local().Format(time.DateOnly),
				textsafe.Inert(s.Path))
		}
	}
	if len(res.Data.EventSessions) > 0 {
		fmt.Fprintln(w, "review events of (past their tier; the file keeps the detail):")
		for _, k := range res.Data.EventSessions {
			fmt.Fprintf(w, "  %s\n", textsafe.Inert(k.String()))
		}
	}
	if res.Data.WorkItemsSwept > 0 {
		fmt.Fprintf(w, "%s without sessions\n", plural(res.Data.WorkItemsSwept, "idle work item"))
	}
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

// figures is what a pass removed, in the one line every sweep shows:
// files, sessions, review events.
func figures(r app.SweepReport) string {
	return removedFigures(r.FilesDeleted, r.BytesDeleted, r.FilesBySize, r.Data.SummariesSwept, r.Data.EventsDeleted)
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
		if d.Type() != os.ModeDir || !layout.IsWorkItemDir(d.Name()) {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(root, d.Name()))
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !layout.IsLayoutPath(d.Name()+"/"+e.Name()) {
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
