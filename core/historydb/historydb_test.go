package historydb

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenReadsACopyWhileTheHarnessHoldsItsLock: a harness's database in
// WAL mode, its last rows only in the log and a write transaction open on
// it, is read whole through the copy, and its files are left as they were.
func TestOpenReadsACopyWhileTheHarnessHoldsItsLock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "harness.db")
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	for _, q := range []string{
		"CREATE TABLE session (id TEXT PRIMARY KEY, title TEXT)",
		"INSERT INTO session VALUES ('ses_1', 'first'), ('ses_2', 'second')",
	} {
		if _, err := w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	// The harness is mid-write: it holds the write lock.
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO session VALUES ('ses_3', 'uncommitted')"); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, path)

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM session").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("the copy holds %d sessions, want the 2 committed ones (in the log only)", n)
	}
	if _, err := db.ExecContext(ctx, "DELETE FROM session"); err == nil {
		t.Error("the copy took a write; it is opened query-only")
	}
	dir := db.dir
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the copy's folder %s is left after Close", dir)
	}
	if after := snapshot(t, path); !bytes.Equal(before, after) {
		t.Error("reading the copy changed the harness's database files")
	}
	if err := tx.Commit(); err != nil {
		t.Errorf("the harness could not commit after sift read its database: %v", err)
	}
}

func TestOpenMissing(t *testing.T) {
	_, err := Open(context.Background(), filepath.Join(t.TempDir(), "none.db"))
	if !os.IsNotExist(err) {
		t.Errorf("Open of a missing database: %v, want a not-exist error", err)
	}
}

// snapshot is the bytes of a database and its log.
func snapshot(t *testing.T, path string) []byte {
	t.Helper()
	var out []byte
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	return out
}
