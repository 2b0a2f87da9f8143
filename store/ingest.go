package store

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/pricing"
	"github.com/agentsift/sift/core/summary"
)

// ImportOptions tunes an import.
type ImportOptions struct {
	// Workers is how many files are summarized at once; 0 means one per
	// CPU.
	Workers int
	// BatchSize is how many sessions one write transaction holds; 0 means
	// 256.
	BatchSize int
	// Force re-summarizes files whose size and mtime are unchanged.
	Force bool
	// Summary is the base of each file's summary options (stall threshold,
	// prices). Agent, Start and End are filled per file from its
	// invocation record, when there is one.
	Summary summary.Options
	// Retention's review tiers decide which sessions are too old to keep
	// review events for: those are neither built nor written, since the
	// sweep would delete them at once. Zero tiers mean the defaults.
	Retention Retention
}

// Progress is the state of a running import, reported after every file.
type Progress struct {
	// FilesTotal and BytesTotal are what this import has to summarize
	// (unchanged files excluded); FilesDone and BytesDone what is done.
	FilesTotal, FilesDone int
	BytesTotal, BytesDone int64
	Skipped, Failed       int
	Elapsed               time.Duration
}

// Failure is a file that could not be imported, and why.
type Failure struct {
	Path   string
	Reason string
}

// String returns "path: reason".
func (f Failure) String() string { return f.Path + ": " + f.Reason }

// ImportResult is what an import did.
type ImportResult struct {
	// Files counts the stream files found under the roots.
	Files int
	// Sessions counts the sessions summarized and written.
	Sessions int
	// Bytes is the size of the files summarized.
	Bytes int64
	// Skipped counts files unchanged since the last import.
	Skipped int
	// Deferred counts files of running work items: they are summarized
	// when the work item reaches a terminal state.
	Deferred int
	// Ignored counts files under a folder whose names are not stream
	// captures (.jsonl, .ndjson, .log, .txt).
	Ignored int
	// Purged counts files of sessions removed with Purge: they are
	// never imported again.
	Purged int
	// Failed lists the files that could not be read or summarized. The
	// import goes on past them.
	Failed  []Failure
	Elapsed time.Duration
}

// MBps is the summarizing rate in MB/s (10^6 bytes).
func (r ImportResult) MBps() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Bytes) / 1e6 / r.Elapsed.Seconds()
}

// candidate is one stream file found by the walk.
type candidate struct {
	path   string
	size   int64
	mtime  int64 // unix ms
	layout fileLayout
	// history is the history format of a file found by ImportHistory,
	// parents the import's cache of Claude subagent links (history.go).
	history agents.Kind
	parents *parentCalls
	// root and rel, for a file found by walking a folder, are the folder
	// with symlinks resolved and the file's path in it, which
	// openCandidate opens it by; a file named by the user has neither.
	root, rel string
}

// Import ingests stream files and folders of them. Unchanged files (same
// size and mtime as when last imported) are skipped, new, grown and changed
// ones are summarized in parallel and written in batches. A file that
// cannot be read or summarized is listed in ImportResult.Failed and the
// import goes on; the error is for failures of the store itself (a full
// disk), which stop the import. progress, when not nil, is called from the
// calling goroutine after every file.
func (s *Store) Import(ctx context.Context, roots []string, opts ImportOptions, progress func(Progress)) (ImportResult, error) {
	start := time.Now()
	cands, res := collect(roots)
	return s.importFiles(ctx, cands, res, opts, progress, start)
}

// collect walks the roots. A root that is a file is read whatever its
// name; in folders only stream captures are, hidden entries skipped, and
// symlinks followed only within the folder (walkRoot).
func collect(roots []string) ([]candidate, ImportResult) {
	return collectKnown(roots, nil)
}

// collectKnown is collect, then the files the store already knows of (its
// ingest index, its invocations' files) that the walk did not meet.
// Nobody named those just now, so each is read only if it lies, links
// resolved, inside its own folder, and through an os.Root on it: a
// capture replaced by a link to a file elsewhere is not read.
func collectKnown(roots, known []string) ([]candidate, ImportResult) {
	c := collector{seen: map[string]bool{}}
	for _, root := range roots {
		c.root(root)
	}
	for _, p := range known {
		c.known(p)
	}
	c.res.Files = len(c.out)
	return c.out, c.res
}

// collector gathers an import's candidates, each path once.
type collector struct {
	out  []candidate
	res  ImportResult
	seen map[string]bool
}

// add takes a candidate unless its path was met before.
func (cl *collector) add(c candidate) {
	if cl.met(c.path) {
		return
	}
	c.path = absPath(c.path)
	c.layout = parseLayout(c.path)
	cl.out = append(cl.out, c)
}

// met reports whether a path was met before, and marks it met.
func (cl *collector) met(path string) bool {
	abs := absPath(path)
	if cl.seen[abs] {
		return true
	}
	cl.seen[abs] = true
	return false
}

func (cl *collector) fail(path string, err error) {
	cl.res.Failed = append(cl.res.Failed, Failure{path, reason(err)})
}

// root adds a root the user named: a file as it is, a folder walked.
func (cl *collector) root(root string) {
	info, err := os.Stat(root)
	if err != nil {
		cl.fail(root, err)
		return
	}
	if !info.IsDir() {
		cl.add(candidate{path: root, size: info.Size(), mtime: info.ModTime().UnixMilli()})
		return
	}
	w, err := newWalkRoot(root)
	if err != nil {
		cl.fail(root, err)
		return
	}
	err = filepath.WalkDir(w.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			cl.fail(path, err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if path != w.dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if d.Type()&fs.ModeSymlink == 0 && !streamExt(d.Name()) {
			cl.res.Ignored++
			return nil
		}
		cl.entry(w, path, d)
		return nil
	})
	if err != nil {
		cl.fail(root, err)
	}
}

// entry adds a file or symlink met in a walk of w.
func (cl *collector) entry(w walkRoot, path string, d fs.DirEntry) {
	rel, info, err := w.entry(path, d)
	switch {
	case err != nil && (streamExt(d.Name()) || errors.Is(err, errLinkOutside) && linkToDir(path)):
		// A refused path stays refused if the store knows it too.
		cl.met(path)
		cl.fail(path, err)
	case err != nil, info.IsDir():
		// A link to a folder inside is walked as itself; a link that
		// is not a stream file is not read.
	case !streamExt(d.Name()):
		cl.res.Ignored++
	case info.Mode().IsRegular():
		cl.add(candidate{path: path, size: info.Size(), mtime: info.ModTime().UnixMilli(), root: w.real, rel: rel})
	}
}

// known adds a file the store knows of, within its own folder.
func (cl *collector) known(path string) {
	if cl.seen[absPath(path)] {
		return
	}
	w, err := newWalkRoot(filepath.Dir(path))
	if err != nil {
		cl.fail(path, err)
		return
	}
	fi, err := os.Lstat(path)
	if err != nil {
		cl.fail(path, err)
		return
	}
	rel, info, err := w.entry(path, fs.FileInfoToDirEntry(fi))
	switch {
	case err != nil:
		cl.met(path)
		cl.fail(path, err)
	case info.Mode().IsRegular():
		cl.add(candidate{path: path, size: info.Size(), mtime: info.ModTime().UnixMilli(), root: w.real, rel: rel})
	}
}

// absPath is path made absolute, or path when it cannot be.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// linkToDir reports whether a symlink leads to a folder.
func linkToDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// reason is an error as a failure's reason, without the path os errors
// repeat.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// job is one file to summarize with what its invocation record declares.
type job struct {
	c   candidate
	inv *invocation
}

// outcome is a summarized file, or why not.
type outcome struct {
	c   candidate
	row *sessionRow
	err error
}

// importFiles summarizes the candidates that changed and writes them.
func (s *Store) importFiles(ctx context.Context, cands []candidate, res ImportResult, opts ImportOptions,
	progress func(Progress), start time.Time,
) (ImportResult, error) {
	finish := func(err error) (ImportResult, error) {
		res.Elapsed = time.Since(start)
		sort.Slice(res.Failed, func(i, j int) bool { return res.Failed[i].Path < res.Failed[j].Path })
		return res, err
	}
	idx, err := s.indexed(ctx)
	if err != nil {
		return finish(err)
	}
	running, err := s.runningWorkItems(ctx)
	if err != nil {
		return finish(err)
	}
	purged, err := s.purgedFiles(ctx)
	if err != nil {
		return finish(err)
	}
	var todo []candidate
	var p Progress
	for _, c := range cands {
		if purged[c.path] {
			res.Purged++
			continue
		}
		if running[c.layout.WorkItemID] {
			res.Deferred++
			continue
		}
		if st, ok := idx[c.path]; ok && !opts.Force && st.size == c.size && st.mtime == c.mtime {
			res.Skipped++
			continue
		}
		todo = append(todo, c)
		p.BytesTotal += c.size
	}
	p.FilesTotal, p.Skipped, p.Failed = len(todo), res.Skipped, len(res.Failed)
	if len(todo) == 0 {
		return finish(nil)
	}
	invs, err := s.invocations(ctx)
	if err != nil {
		return finish(err)
	}
	if opts.Summary.Prices == nil {
		// Parsed once here rather than once per file.
		opts.Summary.Prices = pricing.Default()
	}
	// Biggest files first, so that one large file does not finish last
	// on an otherwise idle machine.
	sort.Slice(todo, func(i, j int) bool { return todo[i].size > todo[j].size })

	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	batchSize := opts.BatchSize
	if batchSize <= 0 {
		batchSize = 256
	}
	// A batch is up to batchMaxBytes of rows. The writer's page cache holds one
	// for the length of the import, so that SQLite does not spill pages
	// to the WAL mid-transaction and write them again at commit; after
	// it the cache is back to SQLite's default and its memory freed.
	if _, err := s.w.ExecContext(ctx, fmt.Sprintf("PRAGMA cache_size = %d", -importCacheKiB)); err != nil {
		return finish(fmt.Errorf("import: %w", wrapError(err)))
	}
	defer s.w.ExecContext(context.WithoutCancel(ctx), "PRAGMA cache_size = -2000; PRAGMA shrink_memory")
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The jobs are queued up front: a worker done with a file takes the
	// next at once, never waiting for a feeder to be scheduled.
	jobs := make(chan job, len(todo))
	for _, c := range todo {
		jobs <- job{c: c, inv: invs.match(c.layout)}
	}
	close(jobs)
	outs := make(chan outcome, workers*4)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			br := bufio.NewReaderSize(nil, readBufSize)
			for j := range jobs {
				if wctx.Err() != nil {
					return
				}
				base := opts.Summary
				base.WantReviewEvents = func(sum *summary.Summary) bool {
					return !pastEventsTier(sum, j.c, s.now(), opts.Retention)
				}
				row, err := s.summarizeFile(j.c, j.inv, base, br)
				if row != nil {
					row.noRun = j.inv == nil
				}
				select {
				case outs <- outcome{c: j.c, row: row, err: err}:
				case <-wctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(outs)
	}()

	// One goroutine writes while this one collects the next batch, so
	// that the workers never wait for a commit.
	batches := make(chan []*sessionRow, 1)
	var written int
	var werr error
	cf := costFiles{}
	wdone := make(chan struct{})
	go func() {
		defer close(wdone)
		for b := range batches {
			if werr != nil {
				continue
			}
			if weight(b) > hugeBatch {
				// SQLite copies a row twice more, outside Go's heap,
				// while it writes it: give back first the heap that
				// summarizing the session left behind, rather than
				// hold both at once.
				debug.FreeOSMemory()
			}
			if err := s.writeRows(ctx, b, cf); err != nil {
				werr = err
				cancel()
				continue
			}
			written += len(b)
		}
	}()
	var batch []*sessionRow
	var batchBytes int
	flush := func() {
		if len(batch) > 0 {
			batches <- batch
		}
		batch, batchBytes = nil, 0
	}
	for o := range outs {
		if wctx.Err() != nil {
			continue
		}
		p.FilesDone++
		p.BytesDone += o.c.size
		if o.err != nil {
			res.Failed = append(res.Failed, Failure{o.c.path, o.err.Error()})
			p.Failed++
		} else {
			res.Bytes += o.c.size
			if batch == nil {
				batch = make([]*sessionRow, 0, batchSize)
			}
			batch = append(batch, o.row)
			batchBytes += o.row.weight()
			// Near the end, smaller batches: what is left to write
			// after the last file is summarized waits for nothing else.
			limit := batchMaxBytes
			if p.BytesDone >= p.BytesTotal-p.BytesTotal/16 {
				limit = batchMaxBytes / 8
			}
			switch {
			case len(batch) >= batchSize || batchBytes >= limit:
				flush()
			case batchBytes >= batchMaxBytes/2:
				// A free writer takes a smaller batch at once: the
				// writer, not the workers, would otherwise set the pace.
				// (Half a batch: each commit rewrites the pages its
				// rows touch, so a smaller one writes more in all.)
				select {
				case batches <- batch:
					batch, batchBytes = nil, 0
				default:
				}
			}
		}
		if progress != nil {
			p.Elapsed = time.Since(start)
			progress(p)
		}
	}
	if wctx.Err() == nil {
		flush()
	}
	close(batches)
	<-wdone
	res.Sessions = written
	if werr == nil && ctx.Err() != nil {
		werr = ctx.Err()
	}
	if werr != nil {
		return finish(fmt.Errorf("import: %w", werr))
	}
	return finish(nil)
}

// hugeBatch is the weight of a batch (a session of some 100,000 tool calls
// or more) before whose write the import returns its free heap to the
// system: for a 300,000-call session this cut the peak from 1.1 GB to
// 0.7 GB. No batch of ordinary sessions comes near it (batchMaxBytes).
const hugeBatch = 64 << 20

// weight is the encoded size of a batch's rows.
func weight(rows []*sessionRow) int {
	n := 0
	for _, r := range rows {
		n += r.weight()
	}
	return n
}

// batchMaxBytes bounds a batch's encoded rows. Small batches keep the
// import's heap small: every batch in flight is live memory, and a larger
// heap is fresh pages the kernel must fault in (8 MB measured 5% faster
// than 32 MB on the benchmark corpus).
const batchMaxBytes = 8 << 20

// importCacheKiB is the writer's page cache during an import: twice the
// largest batch.
const importCacheKiB = 2 * batchMaxBytes >> 10

// errNotStream marks a file that is not a text stream.
var errNotStream = errors.New("binary file, not an agent stream")

// readBufSize is the read buffer of each import worker: the size of the
// parser's own (core/agents newLineReader), which then reads through the
// worker's buffer rather than allocating one per file.
const readBufSize = 256 << 10

// summarizeFile reads and summarizes one file into the rows to write,
// through br, the worker's read buffer.
func (s *Store) summarizeFile(c candidate, inv *invocation, base summary.Options, br *bufio.Reader) (row *sessionRow, err error) {
	defer func() {
		if r := recover(); r != nil {
			row, err = nil, fmt.Errorf("summarizer failed: %v", r)
		}
	}()
	f, err := openCandidate(c)
	if err != nil {
		return nil, errors.New(reason(err))
	}
	defer f.Close()
	var head [4096]byte
	n, err := f.ReadAt(head[:], 0)
	if err != nil && n == 0 && c.size > 0 {
		return nil, errors.New(reason(err))
	}
	if bytes.IndexByte(head[:n], 0) >= 0 {
		return nil, errNotStream
	}
	opt := base
	if k := c.history; k != "" || inv == nil {
		if k == "" {
			k = sniffHistory(head[:n])
		}
		if k != "" {
			return s.summarizeHistory(f, c, k, opt, br)
		}
	}
	if inv != nil {
		opt.Agent = agents.Kind(inv.agent)
		opt.Start, opt.End = fromMs(inv.start), fromMs(inv.end)
		// The recorded exit status decides the run: a non-zero one fails it.
		if inv.exit.Valid {
			code := int(inv.exit.Int64)
			opt.ExitCode = &code
		}
	}
	br.Reset(f)
	sum, evs, err := s.analyze(br, opt)
	if err != nil && errors.Is(err, agents.ErrUnknownAgent) {
		// An invocation record naming a harness this sift cannot read:
		// sniff instead.
		if _, serr := f.Seek(0, 0); serr == nil {
			opt.Agent = ""
			br.Reset(f)
			sum, evs, err = s.analyze(br, opt)
		}
	}
	if err != nil {
		return nil, err
	}
	sum.WorkItemID, sum.FileName, sum.Phase = c.layout.WorkItemID, c.layout.FileName, c.layout.Phase
	sum.Iteration = c.layout.Iteration
	return newSessionRow(c, sum, evs)
}
