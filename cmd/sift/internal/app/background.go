package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/store"
)

// Background is the work a long-lived sift process (`sift serve`, the
// inbox) does besides its own: the import of the logs folder and the
// watch of the agent histories (HistoryWatch), the retention sweep at
// start and daily, the configuration's hot reload, the end of runs whose
// process died, the search index's repair. The current configuration is
// swapped atomically on reload; the logs folder stays the one the process
// started with.
type Background struct {
	Env   *Env
	Store *store.Store
	Log   *slog.Logger
	// Runner names the process in the record of its sweeps.
	Runner string
	// OnSweep, when set, also hears each sweep (the inbox shows it).
	OnSweep func(SweepReport, error)
	// OnReload, when set, hears each configuration reloaded.
	OnReload func(config.Config)

	cfg     atomic.Pointer[config.Config]
	resweep chan struct{}
	// refused is the last warning about a logs folder the sweep refused,
	// logged once rather than daily; only retention touches it.
	refused string
}

// Jobs says which jobs Start runs besides the configuration's reload.
type Jobs struct {
	// Sweep runs the retention sweep at start, then daily, and again
	// when a reload changes a retention setting.
	Sweep bool
	// Import imports the logs folder first, telling Progress; the sweep
	// starts once it is done.
	Import bool
	// History, when set, imports the agent CLIs' histories after the
	// logs folder, telling Progress too, then watches them
	// (HistoryWatch.Run).
	History  *HistoryWatch
	Progress func(ImportProgress)
	// ReapStale ends, every reapEvery, the runs whose `sift run` process
	// is gone.
	ReapStale bool
	// IndexMissing indexes, once, the sessions the search index lacks.
	IndexMissing bool
}

// ImportProgress is how far a background import is.
type ImportProgress struct {
	Files, Total, Sessions int
	Done                   bool
	Err                    error
}

// Start starts the jobs; they end with ctx.
func (b *Background) Start(ctx context.Context, j Jobs) {
	cfg := b.Env.Cfg
	b.cfg.Store(&cfg)
	b.resweep = make(chan struct{}, 1)
	go b.watchConfig(ctx)
	if j.ReapStale {
		go reapStale(ctx, b.Store, b.Env.ImportOptions(), func(err error) { b.Log.Warn("Ending stale runs failed", "err", err) })
	}
	if j.IndexMissing {
		go b.indexMissing(ctx)
	}
	go func() {
		if j.Import || j.History != nil {
			b.importAtStart(ctx, j)
		}
		if j.History != nil {
			go j.History.Run(ctx, func(err error) { b.Log.Warn("History import failed", "err", err) })
		}
		if j.Sweep {
			b.retention(ctx)
		}
	}()
}

// retention sweeps at start, then daily, and again at once when a reload
// changes a retention setting. Each pass uses the current configuration.
func (b *Background) retention(ctx context.Context) {
	t := time.NewTicker(24 * time.Hour)
	defer t.Stop()
	for {
		env := *b.Env
		env.Cfg = *b.cfg.Load()
		res, err := Sweep(ctx, b.Store, &env, b.Runner)
		if b.OnSweep != nil && ctx.Err() == nil {
			b.OnSweep(res, err)
		}
		if w := res.Warning(); w != "" && w != b.refused {
			b.Log.Warn(w)
		}
		b.refused = res.Warning()
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			b.Log.Error("Retention sweep failed", "err", err)
		default:
			b.Log.Info("Retention sweep", "filesDeleted", res.FilesDeleted, "bytesDeleted", res.BytesDeleted,
				"filesBySize", res.FilesBySize, "summariesSwept", res.Data.SummariesSwept,
				"eventSessionsSwept", res.Data.EventsDeleted, "elapsed", res.Elapsed.Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-b.resweep:
		}
	}
}

// watchConfig reloads the configuration file when it changes: the sweep's
// settings and the thresholds of on-demand summaries follow it; a changed
// Path is reported and ignored until restart.
func (b *Background) watchConfig(ctx context.Context) {
	path := b.Env.ConfigPath
	if path == "" {
		p, err := config.DefaultPath()
		if err != nil {
			return
		}
		path = p
	}
	config.NewWatcher(path, *b.cfg.Load(), 0).Run(ctx, func(u config.Update) {
		if u.Err != nil {
			b.Log.Error("Configuration not reloaded", "err", u.Err)
			return
		}
		b.Log.Info(u.Notice())
		old := b.cfg.Swap(&u.Config)
		if b.OnReload != nil {
			b.OnReload(u.Config)
		}
		if old.RetainedDays != u.Config.RetainedDays || old.MaxTotalSizeMb != u.Config.MaxTotalSizeMb || old.Review != u.Config.Review {
			select {
			case b.resweep <- struct{}{}:
			default:
			}
		}
	})
}

// importAtStart imports the logs folder (Jobs.Import), then the agent
// histories (Jobs.History), and reports their progress, at most every
// tenth of a second, then once both are done.
func (b *Background) importAtStart(ctx context.Context, j Jobs) {
	var res ingest.Result
	var errs []error
	if j.Import {
		opts := b.Env.ImportOptions()
		opts.Source = ingest.SourceLogs
		r, err := ImportInBackground(ctx, b.Store, []string{b.Env.Logs}, opts, j.Progress)
		res, errs = r, append(errs, err)
	}
	if j.History != nil && ctx.Err() == nil {
		r, err := j.History.First(ctx, j.Progress)
		res.Files, res.Sessions, errs = res.Files+r.Files, res.Sessions+r.Sessions, append(errs, err)
	}
	if ctx.Err() != nil {
		return
	}
	j.Progress(ImportProgress{Files: res.Files, Total: res.Files, Sessions: res.Sessions, Done: true, Err: errors.Join(errs...)})
}

// ImportInBackground imports the roots, telling progress how far it is at
// most every tenth of a second, then indexes what the search index lacks.
// A failed file is the error.
func ImportInBackground(ctx context.Context, st *store.Store, roots []string, opts ingest.Options, progress func(ImportProgress)) (ingest.Result, error) {
	return importFoundInBackground(ctx, st, ingest.Find(roots), opts, progress)
}

// importFoundInBackground is ImportInBackground of the files a find met.
func importFoundInBackground(ctx context.Context, st *store.Store, found *ingest.Found, opts ingest.Options, progress func(ImportProgress)) (ingest.Result, error) {
	var last time.Time
	res, err := ingest.ImportFound(ctx, st, found, opts, func(p ingest.Progress) {
		// A report every tenth of a second is plenty for a status line.
		if now := time.Now(); now.Sub(last) >= 100*time.Millisecond || p.FilesDone == p.FilesTotal {
			last = now
			progress(ImportProgress{Files: p.FilesDone, Total: p.FilesTotal})
		}
	})
	if err == nil && len(res.Failed) > 0 {
		err = fmt.Errorf("%d files failed, first %s", len(res.Failed), res.Failed[0])
	}
	if err == nil {
		_, err = st.IndexMissing(ctx)
	}
	return res, err
}

// indexMissing indexes the sessions the search index lacks: the sessions
// a database held before it had a search index, or with documents an
// earlier sift placed at wrong calls (store.IndexMissing), and logs what
// it did.
func (b *Background) indexMissing(ctx context.Context) {
	n, err := b.Store.IndexMissing(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		b.Log.Error("Search index backfill failed", "err", err)
	case n > 0:
		b.Log.Info("Indexed the sessions stored by an earlier sift", "sessions", n)
	}
}

// ServeHTTP serves srv on ln until it fails or ctx ends; then it shuts
// the server down, giving requests in flight 10 s.
func ServeHTTP(ctx context.Context, srv *http.Server, ln net.Listener) error {
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			srv.Close()
		}
	}
	return nil
}
