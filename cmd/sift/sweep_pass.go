package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/store"
)

// sweepReport is one retention pass: the logs folder's stream files
// (core/capture) and the review data (store).
type sweepReport struct {
	capture.SweepResult
	Data    store.SweepResult
	Elapsed time.Duration
}

// figures is what the pass removed, in the one line every sweep shows:
// files, sessions, review events.
func (r sweepReport) figures() string {
	return removedFigures(r.FilesDeleted, r.BytesDeleted, r.FilesBySize, r.Data.SummariesSwept, r.Data.EventsDeleted)
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

// run is the record of the pass, by its runner.
func (r sweepReport) run(runner string) store.SweepRun {
	run := store.SweepRun{Started: r.Data.Started, Elapsed: r.Elapsed, Runner: runner, FilesDeleted: r.FilesDeleted,
		BytesDeleted: r.BytesDeleted, FilesBySize: r.FilesBySize, Sessions: r.Data.SummariesSwept,
		EventSessions: r.Data.EventsDeleted, WorkItems: r.Data.WorkItemsSwept}
	if f := r.failures(); len(f) > 0 {
		run.Failures, run.FirstFailure = len(f), f[0]
	}
	return run
}

// sweepOnce runs one retention pass with the configuration of sf: the
// stream files of the logs folder first, the store telling the sweep which
// files its flagged sessions keep longer and its open follow-ups keep
// always, and forgetting those it deleted; then the review data, where a
// summary goes only once its file is gone. The pass is recorded with its
// runner and figures; only a pass without failure is recorded as the last
// successful sweep.
func sweepOnce(ctx context.Context, st *store.Store, sf *storeFlags, runner string) (sweepReport, error) {
	began := time.Now()
	res, errs := sweepPass(ctx, st, sf, false)
	res.Elapsed = time.Since(began)
	if ctx.Err() == nil {
		if err := st.RecordSweepRun(ctx, res.run(runner)); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		if err := st.RecordSweep(ctx, res.Data.Started); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return res, fmt.Errorf("sweep: %w", errors.Join(errs...))
	}
	return res, nil
}

// sweepDry is sweepOnce removing nothing and recording nothing: what a
// pass would remove.
func sweepDry(ctx context.Context, st *store.Store, sf *storeFlags) (sweepReport, error) {
	began := time.Now()
	res, errs := sweepPass(ctx, st, sf, true)
	res.Elapsed = time.Since(began)
	if len(errs) > 0 {
		return res, fmt.Errorf("sweep: %w", errors.Join(errs...))
	}
	return res, nil
}

// sweepPass sweeps the files, then the review data; a file the file
// sweep deleted (or, dry, would) is gone for the review data's.
func sweepPass(ctx context.Context, st *store.Store, sf *storeFlags, dry bool) (sweepReport, []error) {
	var res sweepReport
	var errs []error
	r := sf.Retention()
	keep, err := st.KeptFiles(ctx, r)
	var pinned map[string]bool
	if err == nil {
		pinned, err = st.PinnedFiles(ctx)
	}
	if err == nil {
		spec := sf.SweepSpec()
		spec.Keep, spec.Pinned, spec.Forget, spec.DryRun = keep, pinned, st.ForgetFiles, dry
		res.SweepResult, err = capture.Sweep(ctx, spec)
	} else {
		// Without the files to keep, no file is swept.
		res.Failures = append(res.Failures, capture.Failure{Path: sf.Logs, Reason: err.Error()})
	}
	if err != nil {
		errs = append(errs, err)
	}
	deleted := make(map[string]bool, len(res.Deleted))
	for _, f := range res.Deleted {
		deleted[f.Path] = true
	}
	r.FileGone = func(path string) bool { return deleted[path] || store.FileGone(path) }
	r.DryRun = dry
	if res.Data, err = st.Sweep(ctx, r); err != nil {
		errs = append(errs, err)
	}
	return res, errs
}
