package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/store/pgtest"
)

// The store suite runs against both backends: `go test ./store` runs every
// test on SQLite, and TestSuitePostgres runs the same test binary again
// with envBackend=postgres, in which newTestStore opens a fresh PostgreSQL
// database per test. A test that exercises what only SQLite has (its file,
// its PRAGMAs, FTS5's plans) calls sqliteOnly, which says why it is left
// out on PostgreSQL.

// envBackend names the backend the suite's stores use in this process.
const envBackend = "SIFT_TEST_STORE_BACKEND"

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// onPostgres reports whether this process runs the suite on PostgreSQL.
func onPostgres() bool { return os.Getenv(envBackend) == "postgres" }

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
func TestSuitePostgres(t *testing.T) {
	if onPostgres() {
		t.Skip("this process is the suite on PostgreSQL")
	}
	pgtest.Server(t)
	args := []string{"-test.count=1", "-test.skip=^TestSuitePostgres$", "-test.v"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	if run := os.Getenv("SIFT_TEST_PG_RUN"); run != "" {
		args = append(args, "-test.run="+run)
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), envBackend+"=postgres")
	out, err := cmd.CombinedOutput()
	fails := regexp.MustCompile(`(?m)^\s*--- FAIL: .*$`).FindAllString(string(out), -1)
	skips := regexp.MustCompile(`(?m)^\s*--- SKIP: .*\n\s+\S+: SQLite only: .*$`).FindAllString(string(out), -1)
	passes := regexp.MustCompile(`(?m)^--- PASS: `).FindAllString(string(out), -1)
	t.Logf("on PostgreSQL: %d tests passed, %d failed, %d SQLite only", len(passes), len(fails), len(skips))
	for _, s := range skips {
		t.Log(strings.Join(strings.Fields(s), " "))
	}
	if err != nil || len(fails) > 0 {
		t.Errorf("the store suite fails on PostgreSQL (%v):\n%s", err, tail(string(out), 200))
	}
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// tableNames lists the store's tables.
func tableNames(t testing.TB, s *Store) []string {
	t.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'table'`
	if s.pg {
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
	if s.pg {
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
