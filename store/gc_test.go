package store

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestBulkGCFollowsTheLiveHeap: during a bulk import the collector waits
// for the heap it is given, the limit rises to twice a live heap that
// outgrows half of it, and the settings come back afterwards.
func TestBulkGCFollowsTheLiveHeap(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: BulkGC leaves the collector as told")
	}
	pct, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	defer debug.SetGCPercent(pct)
	restore := BulkGC(StreamImportHeap)
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GC percent during a bulk import = %d, want off", got)
	}
	if got := debug.SetMemoryLimit(-1); got != StreamImportHeap {
		t.Errorf("memory limit = %d, want %d", got, StreamImportHeap)
	}
	live := make([][]byte, 0, 240)
	for range cap(live) {
		live = append(live, make([]byte, 1<<20))
	}
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) < 2*240<<20 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got < 2*240<<20 || got > 3*240<<20 {
		t.Errorf("with 240 MB live the limit is %d MB, want twice that", got>>20)
	}
	runtime.KeepAlive(live)
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after = %d, want 100 back", got)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("memory limit after = %d, want %d back", got, limit)
	}
}
