package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
)

// twoRoots imports the fixtures from two folders, half each, records a
// decision on one session of each, and returns the store's path, the
// first root and the number of sessions.
func twoRoots(t *testing.T) (db, rootA string, sessions int, decided []review.SessionKey) {
	t.Helper()
	dir := t.TempDir()
	db, rootA = testDB(t), filepath.Join(dir, "a")
	rootB := filepath.Join(dir, "b")
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	files := fixtureFiles(t)[:12]
	for i, f := range files {
		root := rootA
		if i%2 == 1 {
			root = rootB
		}
		copyFile(t, f, filepath.Join(root, filepath.Base(filepath.Dir(f)), filepath.Base(f)))
	}
	ctx := context.Background()
	for _, root := range []string{rootA, rootB} {
		sessions += mustImport(t, s, root).Sessions
		all, err := s.StreamFiles(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range all {
			if filepath.Dir(filepath.Dir(f.Path)) != root {
				continue
			}
			k := review.SessionKey{WorkItemID: f.WorkItemID, FileName: f.FileName}
			if err := s.Decide(ctx, review.Decision{Session: k, Kind: review.NeedsFollowup, Note: "keep"}); err != nil {
				t.Fatal(err)
			}
			decided = append(decided, k)
			break
		}
	}
	if sessions != len(files) {
		t.Fatalf("%d sessions from %d files", sessions, len(files))
	}
	return db, rootA, sessions, decided
}

// checkRebuilt checks that every session is back with its decision.
func checkRebuilt(t *testing.T, s *Store, sessions int, decided []review.SessionKey) {
	t.Helper()
	ctx := context.Background()
	if n, _ := s.CountSessions(ctx, review.Query{}); n != sessions {
		t.Fatalf("%d sessions after the second rebuild, want %d (files of the other root forgotten)", n, sessions)
	}
	for _, k := range decided {
		sum, err := s.GetSession(ctx, k)
		if err != nil {
			t.Fatalf("decided session %s: %v", k, err)
		}
		if sum.Decision == nil || sum.Decision.Kind != review.NeedsFollowup {
			t.Fatalf("decision of %s lost: %+v", k, sum.Decision)
		}
	}
	var rebuilding, unread, indexed int
	s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM meta WHERE key = ?`, metaRebuilding).Scan(&rebuilding)
	if rebuilding != 0 {
		t.Fatal("the completed rebuild left the rebuilding mark")
	}
	s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM stream_files WHERE size = -1`).Scan(&unread)
	s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM stream_files`).Scan(&indexed)
	if unread != 0 || indexed != sessions {
		t.Fatalf("ingest index after a completed rebuild: %d rows, %d unread; want %d, 0", indexed, unread, sessions)
	}
}

func TestRebuildCancelledMidwayLosesNoRoot(t *testing.T) {
	t.Parallel()
	db, rootA, sessions, decided := twoRoots(t)
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The rebuild is told only of the first root (as `sift rebuild` is of
	// the logs folder) and cancelled after its first file.
	ctx, cancel := context.WithCancel(context.Background())
	_, err = ingest.Rebuild(ctx, s, []string{rootA}, tiered(ingest.Options{Workers: 1, BatchSize: 1}), func(p ingest.Progress) {
		if p.FilesDone >= 1 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled rebuild: %v", err)
	}
	if _, err := ingest.Rebuild(context.Background(), s, []string{rootA}, tiered(ingest.Options{}), nil); err != nil {
		t.Fatal(err)
	}
	checkRebuilt(t, s, sessions, decided)
}

func TestRebuildCrashedAfterDropLosesNoRoot(t *testing.T) {
	t.Parallel()
	db, rootA, sessions, decided := twoRoots(t)
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	// The process dies right after the rebuild dropped the derived rows:
	// the rebuilding mark stays set and nothing is re-imported.
	if err := s.beginRebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(db); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// A file deleted meanwhile is forgotten by the completed rebuild.
	gone, err := s.StreamFiles(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	var victim string
	for _, f := range gone {
		k := review.SessionKey{WorkItemID: f.WorkItemID, FileName: f.FileName}
		if k != decided[0] && k != decided[1] {
			victim = f.Path
			break
		}
	}
	if err := os.Remove(victim); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Rebuild(context.Background(), s, []string{rootA}, tiered(ingest.Options{}), nil); err != nil {
		t.Fatal(err)
	}
	checkRebuilt(t, s, sessions-1, decided)
}
