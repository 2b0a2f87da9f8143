package ingest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/pricing"
	"github.com/agentsift/sift/core/summary"
)

// Store is what an import asks of the store, and what it hands it.
// *store.Store implements it.
type Store interface {
	// ImportState returns what decides which files an import reads.
	ImportState(ctx context.Context) (State, error)
	// Invocations returns the recorded runs, matched to the files read.
	Invocations(ctx context.Context) (Invocations, error)
	// ImportWriter starts the writing of one import; the import closes
	// the writer when it is done.
	ImportWriter(ctx context.Context) (Writer, error)
}

// Row is a session encoded by the store.
type Row interface {
	// Weight is the row's size in memory, which bounds a batch.
	Weight() int
}

// Writer writes the rows of one import.
type Writer interface {
	// Encode makes the row the store writes of a session. The import's
	// readers call it, several at once, so that Write only writes. It
	// may take the session's lists: the session is not used after. The
	// row keeps none of the summary's lists (ToolCalls, Stalls, Turns)
	// nor the review events: the reader summarizes its next file in
	// their memory (summary.Builder.Reset).
	Encode(s *Session) (Row, error)
	// Write writes a batch of rows in one transaction.
	Write(ctx context.Context, rows []Row) error
	// Close ends the import's writing.
	Close() error
}

// Options tunes an import.
type Options struct {
	// Workers is how many files are read at once; 0 means one per CPU.
	Workers int
	// BatchSize is how many sessions one write transaction holds at
	// most; 0 means 1024. MaxBatchBytes bounds a batch too: it is what
	// ends the batches of a corpus of large sessions, and BatchSize those
	// of small ones, whose commits then rewrite the pages of the
	// summaries' indexes less often.
	BatchSize int
	// Force reads files whose size and mtime are unchanged.
	Force bool
	// Summary is the base of each file's summary options (stall threshold,
	// prices). Agent, Start, End and ExitCode are filled per file from its
	// recorded run, when there is one.
	Summary summary.Options
	// KeepEvents says whether a session of an age (since its last
	// activity), flagged or not, keeps its review events: those the
	// retention sweep would delete at once are neither built nor written.
	// Nil keeps every session's.
	KeepEvents func(age time.Duration, flagged bool) bool
	// Source names where the import looks, for the record of its run
	// (Recorder); "" takes the find's: history, a rebuild's, a run's,
	// else paths.
	Source Source
}

// Progress is the state of a running import, reported after every file.
type Progress struct {
	// FilesTotal and BytesTotal are what this import has to read
	// (unchanged files excluded); FilesDone and BytesDone what is done.
	FilesTotal, FilesDone int
	BytesTotal, BytesDone int64
	Skipped, Failed       int
	Elapsed               time.Duration
}

// Result is what an import did.
type Result struct {
	// Files counts the stream files found.
	Files int
	// Sessions counts the sessions read and written.
	Sessions int
	// Bytes is the size of the files read.
	Bytes int64
	// Skipped counts files unchanged since the last import.
	Skipped int
	// Deferred counts files of running work items: they are read when
	// the work item completes.
	Deferred int
	// Ignored counts files under a folder whose names are not stream
	// captures (.jsonl, .ndjson, .log, .txt).
	Ignored int
	// Purged counts files of purged sessions: they are never imported
	// again.
	Purged int
	// Failed lists the files that could not be read or summarized. The
	// import goes on past them.
	Failed  []Failure
	Elapsed time.Duration
	// Histories counts, per harness whose history folder exists, what
	// an import of the histories did (FindHistory); nil for other
	// imports.
	Histories []HistoryCount
}

// countHistories adds to each harness's count the sessions of its that
// the import found unchanged, failed to read, or read: a session read is
// imported when the import wrote it (it ended without error).
func (r *Result) countHistories(found *Found) {
	if len(r.Histories) == 0 {
		return
	}
	byKind := make(map[agents.Kind]*HistoryCount, len(r.Histories))
	for i := range r.Histories {
		byKind[r.Histories[i].Agent] = &r.Histories[i]
	}
	for i := range found.Files {
		f := &found.Files[i]
		c := byKind[f.history]
		switch {
		case c == nil:
		case f.unchanged:
			c.Unchanged++
		case f.failed:
			c.Failed++
		case f.read:
			c.Imported++
		}
	}
}

// MBps is the reading rate in MB/s (10^6 bytes).
func (r Result) MBps() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Bytes) / 1e6 / r.Elapsed.Seconds()
}

// Err joins the result's failures into one error, nil when none.
func (r Result) Err() error {
	if len(r.Failed) == 0 {
		return nil
	}
	var errs []error
	for _, f := range r.Failed {
		errs = append(errs, errors.New(f.String()))
	}
	return errors.Join(errs...)
}

// Import reads stream files and folders of them into the store. Unchanged
// files (same size and mtime as when last imported) are skipped; new,
// grown and changed ones are read in parallel and written in batches. A
// file that cannot be read or summarized is listed in Result.Failed and
// the import goes on; the error is for failures of the store itself (a
// full disk), which stop the import. progress, when not nil, is called
// from the calling goroutine after every file.
func Import(ctx context.Context, st Store, roots []string, opt Options, progress func(Progress)) (Result, error) {
	return ImportFound(ctx, st, Find(roots), opt, progress)
}

// ImportHistory is Import of the session files under the history roots
// (FindHistory). Each file's model calls are recorded for the store's
// usage report.
func ImportHistory(ctx context.Context, st Store, roots []HistoryRoot, opt Options, progress func(Progress)) (Result, error) {
	return ImportFound(ctx, st, FindHistory(roots), opt, progress)
}

// ImportFound is Import of the files a find met; the import's time counts
// from the find's start.
func ImportFound(ctx context.Context, st Store, found *Found, opt Options, progress func(Progress)) (Result, error) {
	im := &importer{st: st, opt: opt, progress: progress, analyze: analyze, now: time.Now}
	return im.run(ctx, found)
}

// importer is one import.
type importer struct {
	st       Store
	opt      Options
	progress func(Progress)
	// analyze and now are analyze and time.Now, replaced by tests.
	analyze analyzeFunc
	now     func() time.Time
}

// job is one file to read with the run that wrote it.
type job struct {
	f   *File
	inv *Invocation
}

// outcome is a file read and encoded, or why not.
type outcome struct {
	f   *File
	row Row
	err error
}

func (im *importer) run(ctx context.Context, found *Found) (Result, error) {
	defer found.close()
	start := found.start
	if start.IsZero() {
		start = im.now()
	}
	res := Result{Files: len(found.Files), Ignored: found.Ignored, Failed: slices.Clone(found.Failed),
		Histories: slices.Clone(found.histories)}
	finish := func(err error) (Result, error) {
		res.Elapsed = time.Since(start)
		res.countHistories(found)
		sort.Slice(res.Failed, func(i, j int) bool { return res.Failed[i].Path < res.Failed[j].Path })
		if rerr := im.record(ctx, found, start, res, err); err == nil && rerr != nil {
			err = fmt.Errorf("import: record its run: %w", rerr)
		}
		return res, err
	}
	state, err := im.st.ImportState(ctx)
	if err != nil {
		return finish(err)
	}
	var todo []*File
	p := Progress{}
	for i := range found.Files {
		f := &found.Files[i]
		switch st, ok := state.Indexed[f.Path]; {
		case state.Purged[f.Path]:
			res.Purged++
		case state.Running[f.Layout.WorkItemID]:
			res.Deferred++
		case ok && !im.opt.Force && st.Size == f.Size && st.MTime == f.MTime:
			res.Skipped++
			f.unchanged = true
		default:
			f.pinned, f.prev = state.Pinned[f.Path], st
			todo = append(todo, f)
			p.BytesTotal += f.Size
		}
	}
	p.FilesTotal, p.Skipped, p.Failed = len(todo), res.Skipped, len(res.Failed)
	if len(todo) == 0 {
		return finish(nil)
	}
	invs, err := im.st.Invocations(ctx)
	if err != nil {
		return finish(err)
	}
	// Biggest files first, so that one large file does not finish last
	// on an otherwise idle machine.
	sort.SliceStable(todo, func(i, j int) bool { return todo[i].Size > todo[j].Size })
	jobs := make([]job, len(todo))
	for i, f := range todo {
		jobs[i] = job{f: f, inv: invs.Match(f.Layout)}
	}
	err = im.pipeline(ctx, jobs, &res, p, start)
	if err != nil {
		err = fmt.Errorf("import: %w", err)
	}
	return finish(err)
}

// pipeline reads the jobs, Workers at a time, while one goroutine writes
// the batches this one gathers: the readers never wait for a commit.
func (im *importer) pipeline(ctx context.Context, jobs []job, res *Result, p Progress, start time.Time) error {
	opt := im.opt
	if opt.Summary.Prices == nil {
		// Parsed once here rather than once per file.
		opt.Summary.Prices = pricing.Default()
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	w, err := im.st.ImportWriter(ctx)
	if err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	outs := make(chan outcome, workers*4)
	// Each reader has buffers of its own, which the next file it reads
	// reuses.
	now := im.now()
	// The readers take the jobs in order from next: a reader is a
	// goroutine for the whole import, whose stack has grown to a parse's
	// once, rather than one per file.
	var next atomic.Int64
	var reads errgroup.Group
	for range workers {
		reads.Go(func() error {
			r := newReader(opt, now, im.analyze)
			for gctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(jobs) {
					break
				}
				j := jobs[i]
				o := outcome{f: j.f}
				var s *Session
				if s, o.err = r.read(j.f, j.inv); o.err == nil {
					o.row, o.err = w.Encode(s)
				}
				select {
				case outs <- o:
				case <-gctx.Done():
				}
			}
			return nil
		})
	}
	g.Go(func() error {
		reads.Wait()
		close(outs)
		return nil
	})
	batches := make(chan []Row, 1)
	written := 0
	g.Go(func() error {
		for b := range batches {
			if weight(b) > hugeBatch {
				// The store copies a row twice more, outside Go's
				// heap, while it writes it: give back first the heap
				// that reading the session left behind, rather than
				// hold both at once.
				debug.FreeOSMemory()
			}
			if err := w.Write(gctx, b); err != nil {
				return err
			}
			written += len(b)
		}
		return nil
	})
	bt := batcher{size: cmpOr(opt.BatchSize, 1024), out: batches, done: gctx.Done()}
	for o := range outs {
		if gctx.Err() != nil {
			continue
		}
		p.FilesDone++
		p.BytesDone += o.f.Size
		if o.err != nil {
			res.Failed = append(res.Failed, Failure{o.f.Path, o.err.Error()})
			o.f.failed = true
			p.Failed++
		} else {
			o.f.read = true
			res.Bytes += o.f.Size
			// Near the end, smaller batches: what is left to write
			// after the last file is read waits for nothing else.
			bt.add(o.row, p.BytesDone >= p.BytesTotal-p.BytesTotal/16)
		}
		if im.progress != nil {
			p.Elapsed = time.Since(start)
			im.progress(p)
		}
	}
	if gctx.Err() == nil {
		bt.flush()
	}
	close(batches)
	err = g.Wait()
	res.Sessions = written
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// batcher gathers rows into the batches the writer takes.
type batcher struct {
	size  int
	out   chan<- []Row
	done  <-chan struct{}
	batch []Row
	bytes int
}

// add adds a row, and hands the batch over when it is full; near the end
// of the import a batch is full at an eighth of its bytes.
func (b *batcher) add(r Row, end bool) {
	if b.batch == nil {
		b.batch = make([]Row, 0, b.size)
	}
	b.batch = append(b.batch, r)
	b.bytes += r.Weight()
	limit := MaxBatchBytes
	if end {
		limit = MaxBatchBytes / 8
	}
	switch {
	case len(b.batch) >= b.size || b.bytes >= limit:
		b.flush()
	case b.bytes >= MaxBatchBytes/2 || len(b.batch) >= b.size/16:
		// A free writer takes a smaller batch at once: the writer, not
		// the readers, would otherwise set the pace, and rows of light
		// sessions (a history's) would wait for a thousand more while
		// it idles, to be written after the last file is read. (Not
		// less than half a batch's bytes or a sixteenth of its rows:
		// each commit rewrites the pages its rows touch, so a smaller
		// one writes more in all.)
		select {
		case b.out <- b.batch:
			b.batch, b.bytes = nil, 0
		default:
		}
	}
}

// flush hands the batch over, unless the import is stopping.
func (b *batcher) flush() {
	if len(b.batch) > 0 {
		select {
		case b.out <- b.batch:
		case <-b.done:
		}
	}
	b.batch, b.bytes = nil, 0
}

// hugeBatch is the weight of a batch (a session of some 100,000 tool calls
// or more) before whose write the import returns its free heap to the
// system: for a 300,000-call session this cut the peak from 1.1 GB to
// 0.7 GB. No batch of ordinary sessions comes near it (MaxBatchBytes).
const hugeBatch = 64 << 20

// MaxBatchBytes bounds a batch's encoded rows (Row.Weight). Small batches
// keep the import's heap small: every batch in flight is live memory, and
// a larger heap is fresh pages the kernel must fault in (8 MB measured 5%
// faster than 32 MB on the benchmark corpus). The store sizes its page
// cache for an import by it.
const MaxBatchBytes = 8 << 20

// weight is the encoded size of a batch's rows.
func weight(rows []Row) int {
	n := 0
	for _, r := range rows {
		n += r.Weight()
	}
	return n
}

func cmpOr(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
