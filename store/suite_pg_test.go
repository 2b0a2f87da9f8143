package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentsift/sift/store/pgtest"
)

// The store suite runs against both backends: `go test ./store` runs every
// test on SQLite, and TestSuitePostgres runs the same test binary again
// (pgtest.RunSuite), in which newTestStore opens a fresh PostgreSQL
// database per test. A test that exercises what only SQLite has (its file,
// its PRAGMAs, FTS5's plans) calls sqliteOnly, which says why it is left
// out on PostgreSQL.

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// onPostgres reports whether this process runs the suite on PostgreSQL.
func onPostgres() bool { return pgtest.OnPostgres() }

// testDB returns the database a test's store opens.
func testDB(t testing.TB) string {
	t.Helper()
	if onPostgres() {
		return pgtest.New(t)
	}
	return filepath.Join(t.TempDir(), "sift.db")
}

// sqliteOnly skips a test on PostgreSQL, saying why.
func sqliteOnly(t testing.TB, why string) {
	t.Helper()
	if onPostgres() {
		t.Skip("SQLite only: " + why)
	}
}

// TestSuitePostgres runs the store suite on PostgreSQL.
func TestSuitePostgres(t *testing.T) { pgtest.RunSuite(t, "TestSuitePostgres") }

// tableNames lists the store's tables.
func tableNames(t testing.TB, s *Store) []string {
	t.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'table'`
	if onPG(s) {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	rows, err := s.r.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// columnCount counts which of the columns a table has.
func columnCount(t testing.TB, s *Store, table string, cols ...string) int {
	t.Helper()
	q := `SELECT name FROM pragma_table_info(?)`
	if onPG(s) {
		q = `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?`
	}
	rows, err := s.r.QueryContext(context.Background(), q, table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(cols, c) {
			n++
		}
	}
	return n
}
