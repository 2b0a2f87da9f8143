package ingest

import (
	"context"
	"os"
	"path/filepath"
	"time"
)

// Rebuilder is a Store that can be rebuilt from its stream files.
type Rebuilder interface {
	Store
	// StartRebuild drops what the store derived from the stream files
	// and returns the files of its ingest index, which the rebuild reads
	// again.
	StartRebuild(ctx context.Context) ([]string, error)
	// FinishRebuild forgets the indexed files the rebuild did not read
	// again, once it has run to its end.
	FinishRebuild(ctx context.Context) error
}

// Rebuild drops everything the store derived from the stream files and
// reads again the files of its ingest index plus the given roots. It is
// safe to kill at any point (see the store's StartRebuild).
func Rebuild(ctx context.Context, st Rebuilder, roots []string, opt Options, progress func(Progress)) (Result, error) {
	start := time.Now()
	known, err := st.StartRebuild(ctx)
	if err != nil {
		return Result{}, err
	}
	found := FindKnown(roots, existing(known))
	found.start, found.source = start, SourceRebuild
	opt.Force = true
	res, err := ImportFound(ctx, st, found, opt, progress)
	if err != nil {
		return res, err
	}
	return res, st.FinishRebuild(ctx)
}

// Completer is a Store whose work items can be completed.
type Completer interface {
	Store
	// EndWorkItem makes a work item terminal and returns its known
	// stream files: those it was imported from and those its recorded
	// runs wrote. An unknown work item is an error.
	EndWorkItem(ctx context.Context, id string) ([]string, error)
}

// CompleteWorkItem makes a work item terminal and reads all its stream
// files afresh: the files it was imported from, the files its recorded
// runs wrote, and the files of the given roots that belong to it.
func CompleteWorkItem(ctx context.Context, st Completer, id string, roots []string, opt Options) (Result, error) {
	start := time.Now()
	paths, err := st.EndWorkItem(ctx, id)
	if err != nil {
		return Result{}, err
	}
	paths = existing(paths)
	// The folders of its known files hold the files written since. They
	// are walked first, so that a known file is read as the walk reads it.
	dirs := map[string]bool{}
	var walk []string
	for _, p := range paths {
		if d := filepath.Dir(p); !dirs[d] {
			dirs[d] = true
			walk = append(walk, d)
		}
	}
	for _, r := range roots {
		d := filepath.Join(r, id)
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			walk = append(walk, d)
		}
	}
	found := FindKnown(walk, paths)
	found.start, found.source = start, SourceRun
	mine := found.Files[:0]
	for _, f := range found.Files {
		if f.Layout.WorkItemID == id {
			mine = append(mine, f)
		}
	}
	found.Files = mine
	opt.Force = true
	return ImportFound(ctx, st, found, opt, nil)
}
