package agents

import (
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentsift/sift/core/event"
)

// fixtureLoop yields a fixture's lines over and over until size bytes were
// read, without ever holding more than the fixture.
type fixtureLoop struct {
	one  []byte
	pos  int
	left int64
}

func newFixtureLoop(tb testing.TB, rel string, size int64) *fixtureLoop {
	tb.Helper()
	return &fixtureLoop{one: fixtureLines(tb, rel), left: size}
}

// Read implements io.Reader. It stops at the end of the copy of the fixture
// that reaches size, so that the stream ends on a whole line.
func (r *fixtureLoop) Read(p []byte) (int, error) {
	if r.left <= 0 && r.pos == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.one[r.pos:])
	r.pos += n
	r.left -= int64(n)
	if r.pos == len(r.one) {
		r.pos = 0
	}
	return n, nil
}

// peakHeap runs f and returns the highest HeapInuse seen while it ran,
// sampled every millisecond, after a GC that leaves only what was live
// before f. The collector runs at a tenth of the heap's growth meanwhile
// (GOGC=10), so that what is in use is what f holds, not the garbage of
// its last buffers that a collection at GOGC=100 would reach only later
// (a 20 MB line's doubling buffers left 89 MB in use, or 49 MB, as the
// collection came).
func peakHeap(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	var peak atomic.Uint64
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse > peak.Load() {
			peak.Store(ms.HeapInuse)
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	sample()
	return peak.Load()
}

// parseDiscard parses a generated stream of size bytes, dropping each
// event as it is emitted (as an importer that stores and forgets them).
func parseDiscard(tb testing.TB, k Kind, size int64) (events int, st Stats) {
	tb.Helper()
	var err error
	st, err = Default().Parse(newFixtureLoop(tb, benchStreams[k], size), Options{Agent: k},
		func(*event.Event) { events++ })
	if err != nil {
		tb.Fatal(err)
	}
	return events, st
}

// TestParseMemoryBounded streams 64 MB of each benchmarked harness through
// the parser and checks that the heap in use stays under 100 MB: memory is
// bounded by the line cap and the stream's own state, not by its length.
func TestParseMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 64 MB per harness")
	}
	for _, k := range []Kind{Claude, Codex, Gemini} {
		var st Stats
		peak := peakHeap(func() { _, st = parseDiscard(t, k, 64<<20) })
		if st.Bytes < 64<<20 {
			t.Fatalf("%s: parsed %d bytes", k, st.Bytes)
		}
		if peak > 100<<20 {
			t.Errorf("%s: peak heap in use %d MB over a 64 MB stream, want < 100 MB", k, peak>>20)
		}
	}
}

// BenchmarkParseGB parses a 1 GB stream per harness, generated on the fly
// from a real fixture and never held whole, and reports the peak heap in
// use (peak-heap-MB) besides the speed.
func BenchmarkParseGB(b *testing.B) {
	for _, k := range Default().Kinds() {
		if _, ok := benchStreams[k]; !ok {
			continue
		}
		b.Run(string(k), func(b *testing.B) {
			const size = 1 << 30
			b.SetBytes(size)
			b.ReportAllocs()
			var peak uint64
			for i := 0; i < b.N; i++ {
				peak = max(peak, peakHeap(func() { parseDiscard(b, k, size) }))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}
