package store

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
)

// TestWriteWaitsOutALongLock: another process holds the write lock for
// longer than the writer's busy timeout; an import's batch waits for it
// rather than failing with "database is locked" (TestManyWriters saw it
// once, under load, with four importers and four reviewers).
func TestWriteWaitsOutALongLock(t *testing.T) {
	sqliteOnly(t, "SQLite's write lock and busy timeout")
	t.Parallel()
	db := testDB(t)
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	// The writer's own wait, cut short so that the lock outlasts it.
	if _, err := s.w.ExecContext(ctx, "PRAGMA busy_timeout = 50"); err != nil {
		t.Fatal(err)
	}
	conn := holdWriteLock(t, db)
	// The lock holds: the writer alone cannot begin.
	if tx, err := s.w.BeginTx(ctx, nil); !isBusy(err) {
		if tx != nil {
			tx.Rollback()
		}
		t.Fatalf("begin while another process holds the lock: %v, want database is locked", err)
	}
	released := make(chan struct{})
	go func() {
		defer close(released)
		time.Sleep(500 * time.Millisecond) // ten times the writer's wait
		conn.ExecContext(ctx, "COMMIT")
		conn.Close()
	}()
	rows := []*sessionRow{fakeRow(t, fake{wi: "wi-lock", file: "work-1-aaaaaa.jsonl"}, 0)}
	err = s.writeRows(ctx, rows, costFiles{})
	<-released
	if err != nil {
		t.Fatalf("a batch written while another process held the lock: %v", err)
	}
	if n, err := s.CountSessions(ctx, review.Query{}); err != nil || n != 1 {
		t.Fatalf("%d sessions (%v), want the batch's 1", n, err)
	}
}

// TestOpenDoesNotWaitForTheWriteLock: another process holds the write
// lock (an importer, batch after batch); opening an up-to-date store and
// reading it write nothing, so they do not wait for it. TestManyWriters
// once failed to open a reviewer's store with "database is locked": every
// new connection set auto_vacuum, which takes the write lock, and every
// open began a migration transaction.
func TestOpenDoesNotWaitForTheWriteLock(t *testing.T) {
	sqliteOnly(t, "SQLite's write lock")
	t.Parallel()
	db := testDB(t)
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	ctx := context.Background()
	conn := holdWriteLock(t, db)
	defer conn.ExecContext(ctx, "ROLLBACK")
	opened := make(chan error, 1)
	go func() {
		s, err := Open(db)
		if err == nil {
			_, err = s.CountSessions(ctx, review.Query{})
			s.Close()
		}
		opened <- err
	}()
	select {
	case err := <-opened:
		if err != nil {
			t.Fatalf("open while another process holds the write lock: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("open waits for the write lock")
	}
}

// holdWriteLock takes the write lock of the database at db on a
// connection of its own, as another process would (BEGIN IMMEDIATE), and
// returns the connection, closed with the test.
func holdWriteLock(t *testing.T, db string) *sql.Conn {
	t.Helper()
	other, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	return conn
}
