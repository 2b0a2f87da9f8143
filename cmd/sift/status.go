package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"
)

// statusUsage is the usage line of `sift status`.
const statusUsage = "status   coverage: the files found under the logs folder and the history folders, imported, unchanged, unparseable, removed by retention, and when the last import and sweep ran"

// runStatus implements `sift status`: what sift has seen, so that nothing
// looks lost.
func runStatus(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "status", err)
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "status", err)
	}
	defer st.Close()
	lines, err := coverage(context.Background(), st, sf)
	if err != nil {
		return fail(stderr, "status", err)
	}
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	return 0
}

// coverage describes what sift has seen, one line each: the store, the
// logs folder, the history folders and other imports by their last run,
// and retention by its last sweep and its totals. Every line is inert.
func coverage(ctx context.Context, st *store.Store, sf *storeFlags) ([]string, error) {
	n, err := st.CountSessions(ctx, review.Query{})
	if err != nil {
		return nil, err
	}
	out := []string{fmt.Sprintf("store %s: %s", textsafe.Inert(st.Path()), plural(n, "session"))}
	files, size := logsUsage(sf.Logs)
	runs, err := st.LastImports(ctx)
	if err != nil {
		return nil, err
	}
	bySource := map[ingest.Source]store.ImportRun{}
	for _, r := range runs {
		bySource[r.Source] = r
	}
	logs := fmt.Sprintf("logs folder %s: %s (%s) on disk", textsafe.Inert(sf.Logs), plural(files, "stream file"), mb(size))
	out = append(out, logs+"; "+importFigures(bySource, ingest.SourceLogs))
	// The lines after it name each harness's folders.
	out = append(out, "history folders: "+importFigures(bySource, ingest.SourceHistory))
	hl, err := historyLines(ctx, st, sf)
	if err != nil {
		return nil, err
	}
	out = append(out, hl...)
	for _, src := range []ingest.Source{ingest.SourcePaths, ingest.SourceRebuild} {
		if _, ok := bySource[src]; ok {
			out = append(out, string(src)+": "+importFigures(bySource, src))
		}
	}
	return append(out, retentionLines(ctx, st)...), nil
}

// historyLines are one line per harness whose history folder exists or
// whose sessions the store holds: its folders and its sessions stored;
// then the harnesses with neither, on one line.
func historyLines(ctx context.Context, st *store.Store, sf *storeFlags) ([]string, error) {
	projects, err := sf.KnownProjects(ctx, st)
	if err != nil {
		return nil, err
	}
	var out, absent []string
	for _, h := range app.HistoryHarnessRoots(app.HistoryRoots(os.Getenv, projects...)) {
		n, err := st.CountSessions(ctx, review.Query{Agent: string(h.Kind)})
		if err != nil {
			return nil, err
		}
		dirs := strings.Join(h.Found, ", ")
		switch {
		case len(h.Found) == 0 && n == 0:
			absent = append(absent, h.Name)
			continue
		case len(h.Found) == 0:
			dirs = "no folder found"
		}
		out = append(out, fmt.Sprintf("history %s: %s: %s stored", h.Name, textsafe.Inert(dirs), plural(n, "session")))
	}
	if len(absent) > 0 {
		out = append(out, "history not found: "+strings.Join(absent, ", "))
	}
	return out, nil
}

// importFigures is the last import of a source: when, and what it found,
// read, skipped and could not read, with the first failure.
func importFigures(runs map[ingest.Source]store.ImportRun, src ingest.Source) string {
	r, ok := runs[src]
	if !ok {
		return "never imported"
	}
	s := fmt.Sprintf("last import %s ago: %s found, %d imported, %d unchanged, %d unparseable",
		ago(r.Started), plural(r.Found, "file"), r.Read, r.Unchanged, r.Unparseable)
	if r.Deferred > 0 {
		s += fmt.Sprintf(", %d deferred (work item running)", r.Deferred)
	}
	if r.FirstError != "" {
		s += " (first: " + textsafe.Inert(r.FirstError) + ")"
	}
	if r.StoreError != "" {
		s += "; it failed: " + textsafe.Inert(r.StoreError)
	}
	return s
}

// retentionLines are the last sweep and what the recorded sweeps removed
// in all; an error reading them is one line too.
func retentionLines(ctx context.Context, st *store.Store) []string {
	run, ok, err := st.LastSweepRun(ctx)
	if err != nil {
		return []string{"retention: " + textsafe.Inert(err.Error())}
	}
	if !ok {
		return []string{"retention: never swept"}
	}
	line := fmt.Sprintf("retention: last sweep %s ago by %s removed %s", ago(run.Started), run.Runner, runFigures(run))
	if run.Failures > 0 {
		line += fmt.Sprintf("; %s, first: %s", plural(run.Failures, "failure"), textsafe.Inert(run.FirstFailure))
	}
	out := []string{line}
	if total, since, err := st.SweepTotals(ctx); err == nil && !since.IsZero() {
		out = append(out, fmt.Sprintf("removed by retention since %s: %s", since.Local().Format(time.DateOnly), runFigures(total)))
	}
	return out
}

// ago is how long ago a time was, to the second.
func ago(t time.Time) string { return time.Since(t).Round(time.Second).String() }
