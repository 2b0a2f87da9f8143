package app

import (
	"context"
	"os"
	"path/filepath"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/pricing"
	"github.com/agentsift/sift/store"
)

// ImportSpec is one `sift import`: the paths (none: the logs folder), or
// the agent CLIs' own histories.
type ImportSpec struct {
	Paths   []string
	History bool
	// Agents picks the harnesses whose histories are imported (all when
	// empty), by the names HistoryHarnesses gives.
	Agents  []string
	Force   bool
	Workers int
	// Agent, when set, is the kind the files are read as, unsniffed
	// (`sift import --agent KIND`): it forces in a file named alone that
	// nothing says an agent wrote (ingest.ErrNotStream).
	Agent string
	// Progress hears how far the import is.
	Progress func(ingest.Progress)
}

// OpenError is a store that could not be opened: nothing was imported.
type OpenError struct{ Err error }

func (e *OpenError) Error() string { return e.Err.Error() }
func (e *OpenError) Unwrap() error { return e.Err }

// Import opens the store and imports: the paths, incrementally, then the
// sessions the search index lacks; or the histories the agent CLIs keep.
// The price catalog is parsed and the history folders listed while the
// store opens. A failure to open the store is an *OpenError.
func Import(ctx context.Context, env *Env, spec ImportSpec) (ingest.Result, error) {
	go pricing.Default() // 13 ms, in the time the store takes to open
	var found chan *ingest.Found
	var roots []ingest.HistoryRoot
	if spec.History {
		var err error
		roots, err = PickHistories(HistoryRoots(os.Getenv), spec.Agents)
		if err != nil {
			return ingest.Result{}, err
		}
		found = make(chan *ingest.Found, 1)
		go func() { found <- ingest.FindHistory(roots) }()
	}
	st, err := env.Open()
	if err != nil {
		return ingest.Result{}, &OpenError{err}
	}
	defer st.Close()
	opts := env.ImportOptions()
	opts.Force, opts.Workers = spec.Force, spec.Workers
	opts.Summary.Agent = spec.Agent
	if spec.History {
		return importHistory(ctx, st, env, roots, <-found, opts, spec)
	}
	paths := spec.Paths
	if len(paths) == 0 {
		paths = []string{env.Logs}
	}
	if len(paths) == 1 && filepath.Clean(absOr(paths[0])) == filepath.Clean(env.Logs) {
		// The record of the run (sift status) counts it as the logs
		// folder's.
		opts.Source = ingest.SourceLogs
	}
	return importPaths(ctx, st, paths, opts, spec.Progress)
}

// importHistory imports what the find of the histories met, and what the
// project folders sift knows add to it (Aider's chat histories in the
// configuration's Projects and the folders of the store's runs and
// sessions), which are known once the store is open.
func importHistory(ctx context.Context, st *store.Store, env *Env, roots []ingest.HistoryRoot, found *ingest.Found,
	opts ingest.Options, spec ImportSpec) (ingest.Result, error) {
	projects, err := env.KnownProjects(ctx, st)
	if err != nil {
		return ingest.Result{}, err
	}
	more, err := PickHistories(ProjectRoots(os.Getenv, roots, projects...), spec.Agents)
	if err != nil {
		return ingest.Result{}, err
	}
	if len(more) > 0 {
		found.Merge(ingest.FindHistory(more))
	}
	return ingest.ImportFound(ctx, st, found, opts, spec.Progress)
}

// importPaths imports paths, then indexes what the search index lacks.
func importPaths(ctx context.Context, st *store.Store, paths []string, opts ingest.Options, progress func(ingest.Progress)) (ingest.Result, error) {
	res, err := ingest.Import(ctx, st, paths, opts, progress)
	if err == nil {
		_, err = st.IndexMissing(ctx)
	}
	return res, err
}

// absOr is a path made absolute, or as it is when it cannot be.
func absOr(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
