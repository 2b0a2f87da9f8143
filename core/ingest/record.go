package ingest

import (
	"context"
	"time"
)

// Source says where an import looked, for the record of its run
// (Recorder): `sift status` shows the latest of each.
type Source string

// Sources.
const (
	// SourceLogs is the logs folder: the inbox's background import and
	// `sift import` without paths.
	SourceLogs Source = "logs"
	// SourceHistory is the agent CLIs' own session histories.
	SourceHistory Source = "history"
	// SourcePaths is files and folders named on the command line.
	SourcePaths Source = "paths"
	// SourceRebuild is a rebuild of the store from its files.
	SourceRebuild Source = "rebuild"
	// SourceRun is the files of a work item whose runs ended.
	SourceRun Source = "run"
)

// Run is the record of one import: where it looked and what it saw.
type Run struct {
	Source Source
	// Roots are the folders and files it looked in.
	Roots   []string
	Started time.Time
	Result  Result
	// Err is the store's failure that stopped the import, nil when none.
	Err error
}

// Recorder is a Store that keeps the record of each import. An import
// records its run when its store is one, cancelled or not.
type Recorder interface {
	RecordImport(ctx context.Context, r Run) error
}

// recordTimeout bounds the recording of a run whose import was
// cancelled (the inbox quitting). It is longer than a store's own wait for
// a busy database (10 s for SQLite): with other importers and reviewers
// writing at once, the record waits its turn like the import's own writes
// did, rather than failing an import whose sessions are all stored (at
// 5 s, TestManyWriters' importers failed so under load).
const recordTimeout = 30 * time.Second

// record hands the run of an import to its store when the store keeps
// them; the error is the recording's.
func (im *importer) record(ctx context.Context, found *Found, start time.Time, res Result, err error) error {
	rec, ok := im.st.(Recorder)
	if !ok {
		return nil
	}
	src := im.opt.Source
	if src == "" {
		src = found.source
	}
	if src == "" {
		src = SourcePaths
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	return rec.RecordImport(ctx, Run{Source: src, Roots: found.roots, Started: start, Result: res, Err: err})
}
