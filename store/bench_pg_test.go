package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store/pgtest"
)

// The backends side by side, in one run: `go test ./store -run XXX -bench
// Backends`. PostgreSQL is the throwaway cluster of store/pgtest (or
// SIFT_TEST_PG_DSN), on the same machine, sharing its cores.

// benchBackends are the backends and how a benchmark gets a fresh
// database of each.
func benchBackends(b *testing.B) []struct {
	name  string
	fresh func(dir string) (string, func())
} {
	base := pgtest.Server(b)
	return []struct {
		name  string
		fresh func(dir string) (string, func())
	}{
		{"sqlite", func(dir string) (string, func()) { return filepath.Join(dir, "sift.db"), func() {} }},
		{"postgres", func(string) (string, func()) {
			dsn, drop, err := pgtest.CreateDB(base)
			if err != nil {
				b.Fatal(err)
			}
			return dsn, func() { drop() }
		}},
	}
}

// BenchmarkBackendsImport imports the benchmark corpus (BenchmarkImport)
// into a fresh database of each backend.
func BenchmarkBackendsImport(b *testing.B) {
	root, size := benchCorpus(b)
	for _, be := range benchBackends(b) {
		b.Run(be.name, func(b *testing.B) { benchImportInto(b, root, size, be.fresh) })
	}
}

// BenchmarkBackendsListSessions reads the inbox's first page of a
// 100,000-session store (BenchmarkListSessions's) in its default order,
// triage and cost, on each backend.
func BenchmarkBackendsListSessions(b *testing.B) {
	for _, be := range benchBackends(b) {
		b.Run(be.name, func(b *testing.B) {
			s := benchStore(b, be.fresh, benchSessions)
			ctx := context.Background()
			for _, k := range []review.SortKey{review.SortStarted, review.SortTriage, review.SortCost} {
				b.Run(string(k), func(b *testing.B) {
					for b.Loop() {
						rows, err := pageRows(s.ListSessions(ctx, review.Query{Sort: k, Limit: 50}))
						if err != nil || len(rows) != 50 {
							b.Fatal(len(rows), err)
						}
					}
				})
			}
			b.Run("count", func(b *testing.B) {
				for b.Loop() {
					if _, err := s.CountSessions(ctx, review.Query{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkBackendsDecide records a decision and reads the session's
// decisions back: the inbox's round trip of a key press, durable.
func BenchmarkBackendsDecide(b *testing.B) {
	for _, be := range benchBackends(b) {
		b.Run(be.name, func(b *testing.B) {
			s := benchStore(b, be.fresh, 1000)
			ctx := context.Background()
			i := 0
			for b.Loop() {
				k := review.SessionKey{WorkItemID: "wi-" + strconv.Itoa(i%1000/10), FileName: fmt.Sprintf("work-1-%06x.jsonl", i%1000)}
				if err := s.Decide(ctx, review.Decision{Session: k, Kind: review.Reviewed, Reviewer: "bench"}); err != nil {
					b.Fatal(err)
				}
				if _, err := s.Decisions(ctx, k); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// benchStore opens a fresh database of a backend holding n sessions
// (benchFakes); it is closed and removed after the benchmark.
func benchStore(b *testing.B, fresh func(dir string) (string, func()), n int) *Store {
	db, drop := fresh(b.TempDir())
	b.Cleanup(drop)
	s, err := Open(db)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	writeFakes(b, s, benchFakes(n))
	if onPG(s) {
		// What autovacuum does after a bulk insert: the statistics, and
		// the visibility map that lets a count read an index alone.
		if _, err := s.w.Exec(`VACUUM ANALYZE`); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// benchFakes are n sessions of ten per work item, as
// BenchmarkListSessions's store holds.
func benchFakes(n int) []fake {
	rng := rand.New(rand.NewPCG(1, 2))
	fakes := make([]fake, n)
	now := time.Now()
	for i := range fakes {
		fakes[i] = fake{wi: "wi-" + strconv.Itoa(i/10), file: fmt.Sprintf("work-1-%06x.jsonl", i), dur: rng.Int64N(3_600_000),
			usd: rng.Float64() * 5, tokens: rng.Int64N(2_000_000), stalls: rng.IntN(10), errs: rng.IntN(5),
			approvals: rng.IntN(3), flagged: rng.IntN(7) == 0, started: now.Add(-time.Duration(rng.Int64N(int64(80 * 24 * time.Hour))))}
	}
	return fakes
}
