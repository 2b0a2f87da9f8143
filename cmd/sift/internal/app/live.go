package app

import (
	"context"
	"path/filepath"
	"time"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/proc"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// liveEvery is how often a running `sift run` rewrites its session's row:
// the stored summary is rewritten at most once a second.
const liveEvery = time.Second

// liveRun keeps the row of a running `sift run`'s session up to date as
// its stream grows: it tails the file (ingest.Tail: only the new bytes
// are read) and writes the live summary, at most once a second, so that
// an open inbox shows the run as running with its current tool, and
// moves it to the top of the triage order while it waits for an
// approval or stalls.
type liveRun struct {
	st      *store.Store
	tail    *ingest.Tail
	key     review.SessionKey
	phase   string
	iter    int
	agent   string
	path    string
	start   time.Time
	stall   time.Duration
	stop    chan struct{}
	done    chan struct{}
	warn    func(format string, args ...any)
	written bool
}

// startLive starts following the run's stream file; nothing when the run
// is not recorded or writes no file. A file that cannot be tailed is one
// warning: the run goes on, and is summarized when it ends.
func (r *invocationRun) startLive(file string, start time.Time) {
	if !r.rec || file == "" {
		return
	}
	tail, err := ingest.NewTail(file, string(r.cli.Kind))
	if err != nil {
		r.warn("live view: %v", err)
		return
	}
	lr := &liveRun{st: r.st, tail: tail, key: review.SessionKey{WorkItemID: r.workItem, FileName: filepath.Base(file)},
		phase: r.phase, iter: r.iteration, agent: string(r.cli.Kind), path: file, start: start,
		stall: r.env.ImportOptions().Summary.StallThreshold,
		stop:  make(chan struct{}), done: make(chan struct{}), warn: r.warn}
	r.live = lr
	go lr.run()
}

// stopLive stops following the file, before the run's end is recorded
// and its file read whole.
func (r *invocationRun) stopLive() {
	if r.live == nil {
		return
	}
	close(r.live.stop)
	<-r.live.done
	r.live = nil
}

// run writes the row now and then once a second until stopped.
func (lr *liveRun) run() {
	defer close(lr.done)
	defer lr.tail.Close()
	t := time.NewTicker(liveEvery)
	defer t.Stop()
	for {
		if err := lr.write(); err != nil {
			lr.warn("live view: %v", err)
			return
		}
		select {
		case <-lr.stop:
			return
		case <-t.C:
		}
	}
}

// write advances the tail and writes the live row.
func (lr *liveRun) write() error {
	l, err := lr.tail.Advance()
	if err != nil {
		return err
	}
	wait := review.LiveWait(l.Waiting(time.Now(), lr.stall))
	sum := l.Summary(lr.agent, lr.start, string(wait))
	sum.WorkItemID, sum.FileName, sum.Phase = lr.key.WorkItemID, lr.key.FileName, lr.phase
	if lr.iter > 0 {
		it := lr.iter
		sum.Iteration = &it
	}
	return lr.st.WriteLive(context.Background(), store.LiveRun{Summary: sum, Path: lr.path, Tool: l.Tool, Wait: wait})
}

// reapEvery is how often an open inbox looks for runs whose process is
// gone.
const reapEvery = 2 * time.Second

// reapStale ends, every reapEvery until ctx is done, the runs this host
// recorded whose `sift run` process is gone (store.ReapStaleRuns: their
// rows are marked interrupted, their work items terminal) and reads their
// work items' files whole, so that no run stays running while the inbox
// is open. Opening the store does the same once.
func reapStale(ctx context.Context, st *store.Store, opts ingest.Options, warn func(error)) {
	poll(ctx, reapEvery, nil, func() error { return reapOnce(ctx, st, opts) }, warn)
}

// poll calls pass every period, and at once when poke fires (a nil poke
// never does), until ctx is done; warn hears each pass that failed while
// ctx lasts (the next pass tries again).
func poll(ctx context.Context, period time.Duration, poke <-chan struct{}, pass func() error, warn func(error)) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-poke:
		}
		if err := pass(); err != nil && ctx.Err() == nil {
			warn(err)
		}
	}
}

// reapOnce is one pass of reapStale.
func reapOnce(ctx context.Context, st *store.Store, opts ingest.Options) error {
	stale, err := st.ReapStaleRuns(ctx, proc.Judge())
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, r := range stale {
		if seen[r.WorkItemID] {
			continue
		}
		seen[r.WorkItemID] = true
		if state, err := st.WorkItemState(ctx, r.WorkItemID); err != nil || !state.IsTerminal() {
			continue // another of its runs goes on
		}
		res, err := ingest.CompleteWorkItem(ctx, st, r.WorkItemID, nil, opts)
		if err == nil {
			err = res.Err()
		}
		if err != nil {
			return err
		}
	}
	return nil
}
