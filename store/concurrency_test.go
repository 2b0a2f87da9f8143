package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
)

// copyCorpus copies every fixture n times into root as
// <root>/wi-<k>/work-<i>-<hex6>.jsonl and returns the file count.
func copyCorpus(t testing.TB, root string, n int) int {
	t.Helper()
	files := fixtureFiles(t)
	count := 0
	for k := range n {
		for i, f := range files {
			copyFile(t, f, filepath.Join(root, fmt.Sprintf("wi-%d", k), fmt.Sprintf("work-%d-%06x.jsonl", i+1, k*1000+i)))
			count++
		}
	}
	return count
}

// TestConcurrentImportAndReads runs an import (and a forced re-import,
// rewriting every row) while four readers list sessions and read
// summaries, two of them through a second Store on the same file as
// another process would, and a reviewer records decisions. No reader or
// writer may see "database is locked", and every summary read must be
// whole.
func TestConcurrentImportAndReads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := testDB(t)
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	root := filepath.Join(dir, "logs")
	total := copyCorpus(t, root, 6)
	ctx := context.Background()

	var done atomic.Bool
	var reads, decisions atomic.Int64
	errs := make(chan error, 16)
	var wg sync.WaitGroup
	for r := range 4 {
		st := s
		if r%2 == 1 {
			st = other
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sorts := review.SortKeys()
			last := 0
			for i := 0; !done.Load(); i++ {
				n, err := st.CountSessions(ctx, review.Query{})
				if err != nil {
					errs <- fmt.Errorf("reader %d count: %w", r, err)
					return
				}
				if n < last {
					errs <- fmt.Errorf("reader %d: sessions went from %d to %d", r, last, n)
					return
				}
				last = n
				rows, err := pageRows(st.ListSessions(ctx, review.Query{Sort: sorts[i%len(sorts)], Limit: 10, Full: i%2 == 0}))
				if err != nil {
					errs <- fmt.Errorf("reader %d list: %w", r, err)
					return
				}
				for _, row := range rows {
					sum, err := st.GetSession(ctx, row.Key())
					if err != nil {
						errs <- fmt.Errorf("reader %d summary: %w", r, err)
						return
					}
					if sum.ToolCallCount != len(sum.ToolCalls) || sum.StallCount > len(sum.Stalls) ||
						sum.LineCount != row.LineCount || sum.FileName != row.FileName {
						errs <- fmt.Errorf("reader %d: torn summary %s/%s: %d calls of %d, %d stalls of %d",
							r, sum.WorkItemID, sum.FileName, len(sum.ToolCalls), sum.ToolCallCount, len(sum.Stalls), sum.StallCount)
						return
					}
					if _, err := st.ReviewEvents(ctx, row.Key()); err != nil {
						errs <- fmt.Errorf("reader %d events: %w", r, err)
						return
					}
					reads.Add(1)
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // a reviewer in "another process"
		defer wg.Done()
		for !done.Load() {
			rows, err := pageRows(other.ListSessions(ctx, review.Query{Undecided: true, Limit: 1}))
			if err != nil {
				errs <- fmt.Errorf("reviewer list: %w", err)
				return
			}
			if len(rows) == 0 {
				continue
			}
			if err := other.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: rows[0].WorkItemID, FileName: rows[0].FileName}, Kind: review.Reviewed}); err != nil {
				errs <- fmt.Errorf("reviewer decide: %w", err)
				return
			}
			decisions.Add(1)
		}
	}()

	res, err := ingest.Import(ctx, s, []string{root}, tiered(ingest.Options{BatchSize: 8}), nil)
	if err == nil {
		_, err = ingest.Import(ctx, s, []string{root}, tiered(ingest.Options{BatchSize: 8, Force: true}), nil)
	}
	done.Store(true)
	wg.Wait()
	close(errs)
	for e := range errs {
		if strings.Contains(e.Error(), "locked") || strings.Contains(e.Error(), "busy") {
			t.Errorf("lock error: %v", e)
		} else {
			t.Error(e)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if res.Sessions != total || len(res.Failed) != 0 {
		t.Fatalf("import: %+v, want %d sessions", res, total)
	}
	if reads.Load() == 0 || decisions.Load() == 0 {
		t.Fatalf("readers read %d summaries, reviewer made %d decisions: the test proved nothing", reads.Load(), decisions.Load())
	}
	t.Logf("%d sessions imported twice while %d summaries were read and %d decisions recorded", total, reads.Load(), decisions.Load())
}
