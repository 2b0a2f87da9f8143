package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
)

// TestManyWriters is a team on one database: four importers, each its
// own Store as on its own machine, import overlapping folders (every
// folder is imported by two of them, at the same time, twice), while
// four reviewers decide on the sessions as they appear. Every file is
// imported once (one row per session, one ingest index row per file),
// every decision acknowledged is there, and no error (a deadlock, a
// serialization failure, a lock) reaches a caller.
func TestManyWriters(t *testing.T) {
	t.Parallel()
	db := testDB(t)
	dir := t.TempDir()
	var folders []string
	total := 0
	for k := range 4 {
		root := filepath.Join(dir, fmt.Sprintf("f%d", k))
		files := fixtureFiles(t)
		for i, f := range files[:12] {
			copyFile(t, f, filepath.Join(root, fmt.Sprintf("wi-%d", k), fmt.Sprintf("work-%d-%06x.jsonl", i+1, k*1000+i)))
			total++
		}
		folders = append(folders, root)
	}
	open := func() *Store {
		s, err := Open(db)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	ctx := context.Background()
	errs := make(chan error, 64)
	var importers, reviewers sync.WaitGroup
	for m := range 4 {
		s := open()
		importers.Add(1)
		go func() {
			defer importers.Done()
			// Importer m reads folders m and m+1: each folder has two
			// importers racing on it.
			roots := []string{folders[m], folders[(m+1)%4]}
			for round := range 2 {
				res, err := ingest.Import(ctx, s, roots, tiered(ingest.Options{BatchSize: 4, Force: round == 1}), nil)
				if err != nil {
					errs <- fmt.Errorf("importer %d: %w", m, err)
					return
				}
				if len(res.Failed) > 0 {
					errs <- fmt.Errorf("importer %d: failed %v", m, res.Failed)
					return
				}
			}
		}()
	}
	var mu sync.Mutex
	var acked []review.Decision
	stop := make(chan struct{})
	for r := range 4 {
		s := open()
		reviewers.Add(1)
		go func() {
			defer reviewers.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				rows, err := pageRows(s.ListSessions(ctx, review.Query{Limit: 20, Offset: (r * 5) % 20}))
				if err != nil {
					errs <- fmt.Errorf("reviewer %d list: %w", r, err)
					return
				}
				if len(rows) == 0 {
					continue
				}
				row := rows[i%len(rows)]
				d := review.Decision{Session: row.Key(), Kind: review.Reviewed, Reviewer: fmt.Sprintf("r%d", r),
					Note: fmt.Sprintf("r%d decision %d", r, i)}
				if err := s.Decide(ctx, d); err != nil {
					errs <- fmt.Errorf("reviewer %d decide: %w", r, err)
					return
				}
				mu.Lock()
				acked = append(acked, d)
				mu.Unlock()
			}
		}()
	}
	importers.Wait()
	close(stop)
	reviewers.Wait()
	close(errs)
	for e := range errs {
		if s := e.Error(); strings.Contains(s, "deadlock") || strings.Contains(s, "serializ") || strings.Contains(s, "locked") {
			t.Errorf("a lock error reached a caller: %v", e)
		} else {
			t.Error(e)
		}
	}
	s := open()
	if n, err := s.CountSessions(ctx, review.Query{}); err != nil || n != total {
		t.Fatalf("%d sessions (%v), want %d: each file once", n, err, total)
	}
	var indexed int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM stream_files`).Scan(&indexed); err != nil || indexed != total {
		t.Fatalf("%d files in the ingest index (%v), want %d", indexed, err, total)
	}
	var costDup int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT work_item_id, file_name FROM work_item_costs
		GROUP BY work_item_id, file_name HAVING COUNT(*) > 1) x`).Scan(&costDup); err != nil || costDup != 0 {
		t.Errorf("%d sessions with more than one cost row (%v)", costDup, err)
	}
	// Each target's pointer is at its latest decision by time, then id,
	// whichever reviewer committed last.
	var stale int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM decision_latest l WHERE l.decision_id != (SELECT d.id
		FROM review_decisions d WHERE d.work_item_id = l.work_item_id AND d.file_name = l.file_name
		AND d.turn_id = l.turn_id AND d.tool_call_id = l.tool_call_id ORDER BY d.created_at DESC, d.id DESC LIMIT 1)`).Scan(&stale); err != nil || stale != 0 {
		t.Errorf("%d decision pointers not at their latest decision (%v)", stale, err)
	}
	if len(acked) < 8 {
		t.Fatalf("only %d decisions made: the test proved nothing", len(acked))
	}
	var stored int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM review_decisions`).Scan(&stored); err != nil || stored != len(acked) {
		t.Fatalf("%d decisions stored (%v), %d acknowledged", stored, err, len(acked))
	}
	for _, d := range acked[len(acked)-8:] {
		hist, err := s.Decisions(ctx, d.Session)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, h := range hist {
			found = found || h.Note == d.Note && h.Reviewer == d.Reviewer
		}
		if !found {
			t.Errorf("decision %q on %s is missing", d.Note, d.Session)
		}
	}
	t.Logf("%d files imported by 4 importers twice each while 4 reviewers made %d decisions", total, len(acked))
}
