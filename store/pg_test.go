package store

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store/pgtest"
)

// TestPostgresDecisionNamesItsMachine: a decision on PostgreSQL records
// the machine it was made on besides its reviewer.
func TestPostgresDecisionNamesItsMachine(t *testing.T) {
	t.Parallel()
	s, err := Open(pgtest.New(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	writeFakes(t, s, []fake{{wi: "wi", file: "a.jsonl", dur: 1}})
	ctx := context.Background()
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"},
		Kind: review.Reviewed, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	var who, machine string
	if err := s.r.QueryRowContext(ctx, `SELECT reviewer_id, machine FROM review_decisions`).Scan(&who, &machine); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	if who != "ana" || machine != "sift@"+host {
		t.Fatalf("decision by %q on %q, want ana on sift@%s", who, machine, host)
	}
}

// TestPostgresSecretsNeverPrinted: the password of a connection string
// is in no error and no name the store gives, whether the password is
// wrong or the string does not parse; a password file (PGPASSFILE)
// supplies it as it does to psql; sslmode is honoured.
func TestPostgresSecretsNeverPrinted(t *testing.T) {
	dsn := pgtest.New(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pw, _ := u.User.Password()
	s, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.Path(), pw) || !strings.Contains(s.Path(), "xxxxx") {
		t.Errorf("Path() = %q", s.Path())
	}
	s.Close()

	wrong := *u
	wrong.User = url.UserPassword(u.User.Username(), "Secret-Wrong-42")
	if _, err := Open(wrong.String()); err == nil || strings.Contains(err.Error(), "Secret-Wrong-42") {
		t.Errorf("wrong password: %v", err)
	}
	if _, err := Open("postgres://u:Secret-Bad-43@[::1:bad/db"); err == nil || strings.Contains(err.Error(), "Secret-Bad-43") {
		t.Errorf("bad URL: %v", err)
	}
	q := u.Query()
	q.Set("password", "Secret-Key-44")
	kv := *u
	kv.User = url.User(u.User.Username())
	kv.RawQuery = q.Encode()
	if r := RedactDSN(kv.String()); strings.Contains(r, "Secret-Key-44") {
		t.Errorf("RedactDSN(%q) = %q", kv.String(), r)
	}

	// No password in the URL: PGPASSFILE has it, in psql's format.
	pass := filepath.Join(t.TempDir(), "pgpass")
	line := strings.Join([]string{u.Hostname(), u.Port(), strings.TrimPrefix(u.Path, "/"), u.User.Username(), pw}, ":")
	if err := os.WriteFile(pass, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	nopw := *u
	nopw.User = url.User(u.User.Username())
	t.Setenv("PGPASSFILE", pass)
	s, err = Open(nopw.String())
	if err != nil {
		t.Fatalf("open with a password file: %v", err)
	}
	s.Close()

	// sslmode=require refuses a server without TLS, as psql does.
	tls := *u
	q = u.Query()
	q.Set("sslmode", "require")
	tls.RawQuery = q.Encode()
	if _, err := Open(tls.String()); err == nil || !strings.Contains(strings.ToLower(err.Error()), "ssl") {
		t.Errorf("sslmode=require against a server without TLS: %v", err)
	}
}

// TestPostgresOpenAtOnce: four processes opening a new database at the
// same time migrate it once (the advisory lock), and all of them work.
func TestPostgresOpenAtOnce(t *testing.T) {
	t.Parallel()
	dsn := pgtest.New(t)
	errs := make(chan error, 4)
	stores := make(chan *Store, 4)
	for range 4 {
		go func() {
			s, err := Open(dsn)
			errs <- err
			stores <- s
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		s := <-stores
		defer s.Close()
	}
	s, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n, dup int
	if err := s.r.QueryRow(`SELECT COUNT(*), COUNT(*) - COUNT(DISTINCT version) FROM schema_migrations`).Scan(&n, &dup); err != nil {
		t.Fatal(err)
	}
	ms, _ := pgMigrations()
	if n != len(ms) || dup != 0 {
		t.Fatalf("%d migrations recorded (%d twice), want %d", n, dup, len(ms))
	}
}

// TestPostgresServerAway: a server that is not there is one line, after
// a few tries, without the password.
func TestPostgresServerAway(t *testing.T) {
	t.Parallel()
	start := time.Now()
	_, err := Open("postgres://sift:Secret-Away-45@127.0.0.1:1/sift?connect_timeout=2")
	if err == nil || strings.Contains(err.Error(), "Secret-Away-45") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("open of a server that is not there: %v", err)
	}
	if took := time.Since(start); took < time.Second {
		t.Errorf("gave up after %s, without waiting for the server", took)
	}
	t.Log(err)
}

// TestCopyKeepsLegacyRowsHost: a row a SQLite store holds from before
// hosts were recorded is its legacy host's; copied into PostgreSQL, whose
// own legacy host is whoever opened it first, it names that host, and the
// target's legacy host is its own.
func TestCopyKeepsLegacyRowsHost(t *testing.T) {
	t.Parallel()
	src, err := Open(filepath.Join(t.TempDir(), "sift.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	writeFakes(t, src, []fake{{wi: "wi", file: "old.jsonl", dur: 1}, {wi: "wi", file: "new.jsonl", dur: 1}})
	ctx := context.Background()
	for _, q := range []string{
		`UPDATE agent_stream_summaries SET host_id = NULL WHERE file_name = 'old.jsonl'`,
		`UPDATE meta SET value = 'machine-a' WHERE key = 'legacy_host'`,
	} {
		if _, err := src.w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	dst, err := Open(pgtest.New(t))
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if _, err := src.CopyTo(ctx, dst); err != nil {
		t.Fatal(err)
	}
	hosts := map[string]string{}
	rows, err := dst.r.QueryContext(ctx, `SELECT file_name, COALESCE(host_id, '') FROM agent_stream_summaries`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var f, h string
		if err := rows.Scan(&f, &h); err != nil {
			t.Fatal(err)
		}
		hosts[f] = h
	}
	if hosts["old.jsonl"] != "machine-a" || hosts["new.jsonl"] != src.host {
		t.Fatalf("hosts after the copy %v, want old.jsonl on machine-a, new.jsonl on %s", hosts, src.host)
	}
	var legacy string
	if err := dst.r.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'legacy_host'`).Scan(&legacy); err != nil || legacy != dst.host {
		t.Fatalf("target's legacy host %q, %v; want %q", legacy, err, dst.host)
	}
}
