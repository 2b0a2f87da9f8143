package app

import (
	"context"
	"time"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/store"
)

// historyEvery is how often an open inbox looks at the history folders: a
// session an agent CLI starts or writes to shows within about a second,
// as another process's write to the store does.
const historyEvery = time.Second

// HistoryWatch keeps the agent CLIs' own session histories imported while
// a long-lived sift process is open (`sift import --history` once, then
// as they change). Each pass lists the history folders, which reads no
// file, and imports only when a file is new or changed since the pass
// before; the import then reads just those (the ingest index knows the
// others' size and mtime). It polls: the CLIs write under folders of their
// own, which a poll of a second lists in a few milliseconds.
type HistoryWatch struct {
	st    *store.Store
	roots []ingest.HistoryRoot
	opts  ingest.Options
	// OnNew, when set, hears each pass that met a file the pass before
	// had not: a session that may be of a new project. OnImport, when
	// set, hears each pass that wrote sessions, once they are written.
	OnNew    func()
	OnImport func()
	poke     chan struct{}
	// seen is each history file's size and mtime at the last pass that
	// imported: what the next pass compares with.
	seen map[string]stamp
}

// stamp is what tells a file changed: its size and mtime.
type stamp struct{ size, mtime int64 }

// NewHistoryWatch returns the watch of the history folders the
// environment names (HistoryRoots), importing into st with the
// environment's import options.
func NewHistoryWatch(st *store.Store, env *Env, roots []ingest.HistoryRoot) *HistoryWatch {
	opts := env.ImportOptions()
	opts.Source = ingest.SourceHistory
	return &HistoryWatch{st: st, roots: roots, opts: opts, poke: make(chan struct{}, 1)}
}

// Poke asks for a pass now rather than at the next tick (the inbox's r).
// It never blocks.
func (w *HistoryWatch) Poke() {
	select {
	case w.poke <- struct{}{}:
	default:
	}
}

// First is the pass at open: the histories imported as `sift import
// --history` would, progress told as the logs folder's import tells it,
// then the sessions the search index lacks indexed.
func (w *HistoryWatch) First(ctx context.Context, progress func(ImportProgress)) (ingest.Result, error) {
	found := ingest.FindHistory(w.roots)
	now := w.stamps(found)
	res, err := importFoundInBackground(ctx, w.st, found, w.opts, progress)
	if ctx.Err() == nil {
		w.seen = now
	}
	return res, err
}

// Run passes every historyEvery, and when poked, until ctx is done;
// warn hears a pass that failed (the next one tries again).
func (w *HistoryWatch) Run(ctx context.Context, warn func(error)) {
	poll(ctx, historyEvery, w.poke, func() error {
		_, _, err := w.pass(ctx)
		return err
	}, warn)
}

// pass imports the histories when a file is new or changed since the
// last pass that imported, and reports whether it did, with what the
// import did. The import counts and records every file found, as `sift
// import --history` does, and reads only the changed ones.
func (w *HistoryWatch) pass(ctx context.Context) (ingest.Result, bool, error) {
	found := ingest.FindHistory(w.roots)
	now := w.stamps(found)
	fresh, changed := false, len(now) != len(w.seen)
	for p, s := range now {
		old, ok := w.seen[p]
		fresh = fresh || !ok
		changed = changed || old != s
	}
	if !changed {
		found.Close()
		return ingest.Result{}, false, nil
	}
	res, err := ingest.ImportFound(ctx, w.st, found, w.opts, nil)
	if err == nil {
		err = res.Err()
	}
	if ctx.Err() != nil {
		return res, false, ctx.Err()
	}
	// A file that failed is not read again until it changes: the warning
	// says so once.
	w.seen = now
	if fresh && w.OnNew != nil {
		w.OnNew()
	}
	if res.Sessions > 0 && w.OnImport != nil {
		w.OnImport()
	}
	return res, true, err
}

// stamps are the size and mtime of each file a find met.
func (w *HistoryWatch) stamps(found *ingest.Found) map[string]stamp {
	out := make(map[string]stamp, len(found.Files))
	for _, f := range found.Files {
		out[f.Path] = stamp{f.Size, f.MTime}
	}
	return out
}
