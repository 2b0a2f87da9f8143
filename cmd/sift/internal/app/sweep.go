package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/core/layout"
	"github.com/agentsift/sift/store"
)

// SweepReport is one retention pass: the logs folder's stream files
// (core/capture) and the review data (store).
type SweepReport struct {
	retention.SweepResult
	Data    store.SweepResult
	Elapsed time.Duration
}

// Failures lists what the pass could not clean, one line each.
func (r SweepReport) Failures() []string {
	var out []string
	for _, f := range r.SweepResult.Failures {
		out = append(out, f.String())
	}
	for _, f := range r.Data.Failures {
		out = append(out, f.String())
	}
	return out
}

// run is the record of the pass, by its runner.
func (r SweepReport) run(runner string) store.SweepRun {
	run := store.SweepRun{Started: r.Data.Started, Elapsed: r.Elapsed, Runner: runner, FilesDeleted: r.FilesDeleted,
		BytesDeleted: r.BytesDeleted, FilesBySize: r.FilesBySize, Sessions: r.Data.SummariesSwept,
		EventSessions: r.Data.EventsDeleted, WorkItems: r.Data.WorkItemsSwept}
	if f := r.Failures(); len(f) > 0 {
		run.Failures, run.FirstFailure = len(f), f[0]
	}
	return run
}

// Sweep runs one retention pass with the environment's configuration: the
// stream files of the logs folder first, the store telling the sweep which
// files its flagged sessions keep longer and its open follow-ups keep
// always, and forgetting those it deleted; then the review data, where a
// summary goes only once its file is gone. The pass is recorded with its
// runner and figures; only a pass without failure is recorded as the last
// successful sweep.
func Sweep(ctx context.Context, st *store.Store, env *Env, runner string) (SweepReport, error) {
	began := time.Now()
	res, errs := sweepPass(ctx, st, env, false)
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

// SweepDry is Sweep removing nothing and recording nothing: what a pass
// would remove.
func SweepDry(ctx context.Context, st *store.Store, env *Env) (SweepReport, error) {
	began := time.Now()
	res, errs := sweepPass(ctx, st, env, true)
	res.Elapsed = time.Since(began)
	if len(errs) > 0 {
		return res, fmt.Errorf("sweep: %w", errors.Join(errs...))
	}
	return res, nil
}

// sweepPass sweeps the files, then the review data; a file the file
// sweep deleted (or, dry, would) is gone for the review data's.
func sweepPass(ctx context.Context, st *store.Store, env *Env, dry bool) (SweepReport, []error) {
	var res SweepReport
	var errs []error
	r := env.Retention()
	keep, err := st.KeptFiles(ctx, r)
	var pinned map[string]bool
	if err == nil {
		pinned, err = st.PinnedFiles(ctx)
	}
	if err == nil {
		spec := env.SweepSpec()
		spec.Keep, spec.Pinned, spec.Forget, spec.DryRun = keep, pinned, st.ForgetFiles, dry
		res.SweepResult, err = retention.Sweep(ctx, spec)
	} else {
		// Without the files to keep, no file is swept.
		res.SweepResult.Failures = append(res.SweepResult.Failures, retention.Failure{Path: env.Logs, Reason: err.Error()})
	}
	if err != nil {
		errs = append(errs, err)
	}
	deleted := make(map[string]bool, len(res.Deleted))
	for _, f := range res.Deleted {
		deleted[f.Path] = true
	}
	r.FileGone = func(path string) bool { return deleted[path] || retention.FileGone(path) }
	r.DryRun = dry
	if res.Data, err = st.Sweep(ctx, r); err != nil {
		errs = append(errs, err)
	}
	return res, errs
}

// Warning is the one line to show when the pass skipped the logs folder,
// or "".
func (r SweepReport) Warning() string { return RootWarning(r.LogsRefused) }

// RootWarning says why a logs folder is not swept and what to do about
// it, in one line; "" when err is not a refusal.
func RootWarning(err error) string {
	var re *layout.RootError
	if !errors.As(err, &re) {
		return ""
	}
	var hint string
	switch re.Problem {
	case layout.RootUnmarked:
		hint = "run `sift init-logs " + QuoteArg(re.Dir) + "` to let sift sweep it"
	case layout.RootSymlink:
		hint = "point Path (or --logs) at the folder itself, not a link to it"
	default:
		hint = "set Path in the configuration (or --logs) to a folder of its own"
	}
	return fmt.Sprintf("logs folder %s not swept: %s; %s", QuoteArg(re.Dir), re.Reason(), hint)
}

// QuoteArg quotes a path for a command line a user may paste: as it is
// when it needs no quoting, else in single quotes, or Go-quoted when it
// holds characters that are not printable.
func QuoteArg(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-") == "" {
		return s
	}
	if !strconv.CanBackquote(s) || strings.ContainsRune(s, '`') {
		return strconv.Quote(s)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
