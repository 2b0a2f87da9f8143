package store

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/agentsift/sift/core/retention"
)

// BenchmarkSweepOldSessionsOnDisk is the pass the inbox runs at every
// start over a store of 5,400 sessions past every tier whose stream files
// are on disk: it reads the candidates from the retention index, looks
// for each file, and removes nothing.
func BenchmarkSweepOldSessionsOnDisk(b *testing.B) {
	s := newTestStore(b)
	dir := b.TempDir()
	var fakes []fake
	for i := range sweepBenchSessions() {
		fakes = append(fakes, fake{wi: "w" + strconv.Itoa(i%50), file: "f" + strconv.Itoa(i) + ".jsonl",
			started: time.Now().Add(-200 * 24 * time.Hour)})
	}
	writeFakes(b, s, fakes)
	ctx := context.Background()
	// The files are where the rows say: /fake/<wi>/<file> under dir.
	if _, err := s.w.ExecContext(ctx, `UPDATE agent_stream_summaries SET path = ? || '/' || work_item_id || '/' || file_name`, dir); err != nil {
		b.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `UPDATE stream_files SET path = ? || '/' || work_item_id || '/' || file_name`, dir); err != nil {
		b.Fatal(err)
	}
	for _, f := range fakes {
		p := filepath.Join(dir, f.wi, f.file)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.Sweep(ctx, retention.Policy{}); err != nil { // the review events go once
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		res, err := s.Sweep(ctx, retention.Policy{})
		if err != nil || res.SummariesSwept != 0 {
			b.Fatalf("%+v, %v", res, err)
		}
	}
}

// sweepBenchSessions is the benchmark store's size: 5,400, or
// $SIFT_SWEEP_BENCH_SESSIONS.
func sweepBenchSessions() int {
	if n, err := strconv.Atoi(os.Getenv("SIFT_SWEEP_BENCH_SESSIONS")); err == nil && n > 0 {
		return n
	}
	return 5400
}
