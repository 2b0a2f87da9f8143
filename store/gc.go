package store

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The heap a bulk import may grow to before the collector runs. A stream
// import allocates about seven times its input (events, tool calls, review
// events, encoded rows); a history import less than its input, so a
// smaller heap, with fewer fresh pages to fault in, serves it better (96 MB
// measured 2% faster than 128 MB there, 64 and 80 MB slower). Both were
// measured on the benchmark corpora (store.BenchmarkImport, the ccusage
// comparison in cmd/sift).
const (
	StreamImportHeap  = 384 << 20
	HistoryImportHeap = 96 << 20
)

// BulkGC trades memory for speed for the length of a bulk import (sift
// import, sift rebuild): instead of collecting each time the heap doubles,
// the collector runs only when the heap reaches heap bytes, or twice the
// live heap when that is more (as GOGC=100 would: one file of 300,000
// tool calls is a few hundred MB live, and four times that, the factor
// this used, took a 330 MB stream's import to 2.6 GB). An import's live heap is small (a few
// tens of MB: the files being summarized and the batches being written)
// while it allocates several times that, so it is collected a few times
// per 100 MB of input instead of tens; capping the heap also bounds the
// fresh pages the kernel must fault in. On the import benchmark it saves a
// tenth of the CPU. GOGC or GOMEMLIMIT, when set, win. The returned
// function restores the collector's settings.
func BulkGC(heap int64) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	pct := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(heap)
	done := make(chan struct{})
	go func() {
		// A heap that stays mostly live would make the collector run
		// back to back: the limit follows twice the live heap.
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		cur := heap
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(live)
			if want := 2 * int64(live[0].Value.Uint64()); want > cur {
				cur = want
				debug.SetMemoryLimit(cur)
			}
		}
	}()
	return func() {
		close(done)
		debug.SetGCPercent(pct)
		debug.SetMemoryLimit(limit)
	}
}
