package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
	"github.com/agentsift/sift/store/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestMigrateRoundTrip copies a SQLite store with decisions into
// PostgreSQL and reads both back through the same commands: sift list
// --json (with and without --full) and a session's decision history are
// identical, a search finds the same sessions, and a second migrate
// copies nothing.
func TestMigrateRoundTrip(t *testing.T) {
	pg := pgtest.New(t)
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("SIFT_DB", "")
	db := filepath.Join(dir, "sift.db")
	logs := filepath.Join(dir, "logs")
	fixtures, _ := filepath.Glob("../../testdata/streams/*/*.jsonl")
	if len(fixtures) < 20 {
		t.Fatalf("only %d fixtures", len(fixtures))
	}
	for i, f := range fixtures[:24] {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		wi := filepath.Join(logs, "wi-"+string(rune('a'+i%4)))
		os.MkdirAll(wi, 0o755)
		if err := os.WriteFile(filepath.Join(wi, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, errOut, code := siftCmd(t, "import", "--db", db, "--logs", logs); code != 0 {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	rows := listKeys(t, db)
	for i, d := range []string{"reviewed", "needs_followup", "ignored", "reviewed"} {
		if out, errOut, code := siftCmd(t, "decide", "--db", db, rows[i], "--decision", d, "--note", "note "+d, "--reviewer", "ana"); code != 0 {
			t.Fatalf("decide: %d %q %q", code, out, errOut)
		}
	}
	if out, errOut, code := siftCmd(t, "decide", "--db", db, rows[3], "--undo", "--reviewer", "bo"); code != 0 {
		t.Fatalf("undo: %d %q %q", code, out, errOut)
	}

	out, errOut, code := siftCmd(t, "migrate", "--db", db, "--to", pg)
	if code != 0 || !strings.Contains(out, "counts verified") || !strings.Contains(out, "0 there already") {
		t.Fatalf("migrate: %d %q %q", code, out, errOut)
	}
	if strings.Contains(out, pgPassword(t, pg)) {
		t.Fatalf("migrate printed the password: %q", out)
	}
	out, errOut, code = siftCmd(t, "migrate", "--db", db, "--to", pg)
	if code != 0 || !strings.Contains(out, " 0 copied") {
		t.Fatalf("second migrate: %d %q %q", code, out, errOut)
	}

	for _, args := range [][]string{
		{"list", "--json"},
		{"list", "--json", "--full"},
		{"list", "--json", "--sort", "cost", "--asc"},
		{"list", "--json", "--flagged"},
		{"list", "--json", "--undecided"},
		{"search", "--json", "error"},
		{"decide", rows[3], "--history"},
		{"followups"},
		{"decisions", "export"},
		{"sweep", "--dry-run"},
	} {
		a, errA, codeA := siftCmd(t, append(args, "--db", db)...)
		b, errB, codeB := siftCmd(t, append(args, "--db", pg)...)
		if codeA != 0 || codeB != 0 || a != b {
			t.Errorf("%v differs between SQLite and PostgreSQL:\nsqlite %d %q\n%s\npostgres %d %q\n%s", args, codeA, errA, a, codeB, errB, b)
		}
		if len(a) < 10 {
			t.Errorf("%v printed next to nothing: %q", args, a)
		}
	}
}

// listKeys returns the sessions of a store as work-item/file references.
func listKeys(t *testing.T, db string) []string {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	page, err := st.ListSessions(t.Context(), review.Query{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range page.Sessions {
		out = append(out, s.WorkItemID+"/"+s.FileName)
	}
	if len(out) < 4 {
		t.Fatalf("only %d sessions", len(out))
	}
	return out
}

// pgPassword returns the password of a test DSN.
func pgPassword(t *testing.T, dsn string) string {
	t.Helper()
	i := strings.Index(dsn, "://")
	at := strings.Index(dsn, "@")
	userpw := dsn[i+3 : at]
	_, pw, _ := strings.Cut(userpw, ":")
	if len(pw) < 8 {
		t.Fatalf("the test DSN has no password")
	}
	return pw
}
