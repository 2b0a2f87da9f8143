// Package pgtest gives tests a throwaway PostgreSQL database. A test
// binary's TestMain calls Main, which uses the server SIFT_TEST_PG_DSN
// names, or else starts a cluster of its own in a temporary folder
// (initdb and pg_ctl of the distribution's package, run as the postgres
// user when the tests run as root, since initdb refuses root), listening
// on 127.0.0.1 only, on a free port, with a random password. New then
// creates a fresh database per test and drops it after. When no server
// can be had, New skips the test with the line that installs one.
//
// It is a package only tests import.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// EnvDSN names the server tests use when it is set: a DSN whose user may
// create databases.
const EnvDSN = "SIFT_TEST_PG_DSN"

// envSkip carries, from Main to New in the same process, why no server
// could be started.
const envSkip = "SIFT_TEST_PG_SKIP"

// Install is what a machine without PostgreSQL needs.
const Install = "apt-get install -y postgresql"

// Main runs a package's tests with a PostgreSQL server: the one
// SIFT_TEST_PG_DSN names, else a throwaway cluster it starts and stops
// around the tests. It returns the exit code for os.Exit.
func Main(m *testing.M) int {
	if os.Getenv(EnvDSN) != "" {
		return m.Run()
	}
	c, err := Start()
	if err != nil {
		os.Setenv(envSkip, err.Error())
		return m.Run()
	}
	os.Setenv(EnvDSN, c.DSN)
	code := m.Run()
	if err := c.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest: stop:", err)
	}
	os.Unsetenv(EnvDSN)
	return code
}

// New creates an empty database on the test server and returns its DSN;
// the database is dropped when the test ends. It skips the test, naming
// the install, when there is no server.
func New(t testing.TB) string {
	t.Helper()
	dsn, drop, err := CreateDB(Server(t))
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		if err := drop(); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return dsn
}

// CreateDB creates a database with a random name on the server base
// names, and returns its DSN and a function that drops it.
func CreateDB(base string) (string, func() error, error) {
	name := "sift_test_" + randHex(6)
	db, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, fmt.Errorf("parse %s: not a URL", EnvDSN)
	}
	u.Path = "/" + name
	drop := func() error {
		db, err := sql.Open("pgx", base)
		if err != nil {
			return err
		}
		defer db.Close()
		if _, err := db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
			return fmt.Errorf("drop database %s: %w", name, err)
		}
		return nil
	}
	return u.String(), drop, nil
}

// Cluster is a throwaway PostgreSQL cluster.
type Cluster struct {
	// DSN connects to its postgres database as its superuser.
	DSN string
	// Dir holds the data folder, the socket and the log.
	Dir string
	// User and Password are its superuser's.
	User, Password string
	// Port is the TCP port it listens on, on 127.0.0.1.
	Port int
	bin  string
	as   []string
}

// Start initialises and starts a cluster in a new temporary folder.
func Start() (*Cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, User: "sift", Password: randHex(16)}
	if c.Dir, err = os.MkdirTemp("", "sift-pg-"); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		if c.as, err = asPostgres(c.Dir); err != nil {
			os.RemoveAll(c.Dir)
			return nil, err
		}
	}
	if err := c.start(); err != nil {
		c.Stop()
		return nil, err
	}
	u := url.URL{Scheme: "postgres", User: url.UserPassword(c.User, c.Password),
		Host: "127.0.0.1:" + strconv.Itoa(c.Port), Path: "/postgres", RawQuery: "sslmode=disable"}
	c.DSN = u.String()
	return c, nil
}

// start runs initdb and pg_ctl start.
func (c *Cluster) start() error {
	pw := filepath.Join(c.Dir, "pw")
	if err := os.WriteFile(pw, []byte(c.Password+"\n"), 0o600); err != nil {
		return err
	}
	if err := c.chown(pw); err != nil {
		return err
	}
	data := filepath.Join(c.Dir, "data")
	if out, err := c.run("initdb", "-D", data, "-U", c.User, "--pwfile", pw, "-A", "scram-sha-256",
		"-E", "UTF8", "--locale", "C.UTF-8", "--no-sync"); err != nil {
		return fmt.Errorf("initdb: %w: %s", err, lastLines(out))
	}
	os.Remove(pw)
	port, err := freePort()
	if err != nil {
		return err
	}
	c.Port = port
	// Tests do not survive a power cut: the cluster does not sync, unless
	// SIFT_TEST_PG_FSYNC=on (a benchmark's durable figures want it).
	fsync := "off"
	if os.Getenv("SIFT_TEST_PG_FSYNC") == "on" {
		fsync = "on"
	}
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c max_connections=200 -c fsync=%s", port, c.Dir, fsync)
	if out, err := c.run("pg_ctl", "-D", data, "-o", opts, "-l", filepath.Join(c.Dir, "log"), "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.Dir, "log"))
		return fmt.Errorf("pg_ctl start: %w: %s %s", err, lastLines(out), lastLines(log))
	}
	return nil
}

// Stop stops the cluster and removes its folder.
func (c *Cluster) Stop() error {
	var err error
	if _, statErr := os.Stat(filepath.Join(c.Dir, "data", "postmaster.pid")); statErr == nil {
		if out, e := c.run("pg_ctl", "-D", filepath.Join(c.Dir, "data"), "-m", "immediate", "-w", "stop"); e != nil {
			err = fmt.Errorf("pg_ctl stop: %w: %s", e, lastLines(out))
		}
	}
	return errors.Join(err, os.RemoveAll(c.Dir))
}

// run runs one of the server's programs, as the postgres user when root.
func (c *Cluster) run(prog string, args ...string) ([]byte, error) {
	argv := append(append(append([]string(nil), c.as...), filepath.Join(c.bin, prog)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	return cmd.CombinedOutput()
}

// chown gives a file to the user the server runs as.
func (c *Cluster) chown(path string) error {
	if len(c.as) == 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(path, uid, gid)
}

// asPostgres gives the folder to the postgres user and returns the
// command prefix that runs a program as that user.
func asPostgres(dir string) ([]string, error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root and there is no postgres user to run initdb as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, err
	}
	if p, err := exec.LookPath("runuser"); err == nil {
		return []string{p, "-u", "postgres", "--"}, nil
	}
	if p, err := exec.LookPath("setpriv"); err == nil {
		return []string{p, "--reuid", u.Uid, "--regid", u.Gid, "--init-groups"}, nil
	}
	return nil, errors.New("running as root and neither runuser nor setpriv is there to drop to the postgres user")
}

// binDir finds the server's programs: /usr/lib/postgresql/<version>/bin,
// the newest version, else initdb on PATH.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errors.New("no initdb in /usr/lib/postgresql/*/bin nor on PATH")
}

// version is the major version in a /usr/lib/postgresql/<version>/bin
// path.
func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// freePort returns a TCP port of 127.0.0.1 that nothing listens on.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// randHex returns n random bytes in hex.
func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// lastLines returns the last few lines of a program's output.
func lastLines(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, " | ")
}

// Server returns the DSN of the test server's postgres database, for a
// test that creates databases itself; it skips like New.
func Server(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvDSN)
	if base == "" {
		why := os.Getenv(envSkip)
		if why == "" {
			why = "pgtest.Main did not run (the package's TestMain must call it)"
		}
		t.Skipf("no PostgreSQL for this test (%s): %s, or set %s", why, Install, EnvDSN)
	}
	return base
}

// EnvBackend names the backend a test suite's stores use in this process:
// "postgres" in the process RunSuite starts, else the SQLite file.
const EnvBackend = "SIFT_TEST_STORE_BACKEND"

// OnPostgres reports whether this process runs its suite on PostgreSQL
// (RunSuite).
func OnPostgres() bool { return os.Getenv(EnvBackend) == "postgres" }

// RunSuite runs the calling package's tests again on PostgreSQL: the
// test binary once more, all its tests but the one that calls RunSuite
// (named self), with EnvBackend=postgres, so that the package's helper
// that opens a store opens a fresh PostgreSQL database (New) instead of a
// file. It logs how many tests passed and which were skipped as SQLite
// only ("SQLite only:" in the skip message), and fails with the output's
// end when any test fails. SIFT_TEST_PG_RUN narrows the tests (-run).
func RunSuite(t *testing.T, self string) {
	t.Helper()
	if OnPostgres() {
		t.Skip("this process is the suite on PostgreSQL")
	}
	Server(t)
	args := []string{"-test.count=1", "-test.skip=^" + self + "$", "-test.v"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	if run := os.Getenv("SIFT_TEST_PG_RUN"); run != "" {
		args = append(args, "-test.run="+run)
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), EnvBackend+"=postgres")
	out, err := cmd.CombinedOutput()
	fails := regexp.MustCompile(`(?m)^\s*--- FAIL: .*$`).FindAllString(string(out), -1)
	skips := regexp.MustCompile(`(?m)^\s+\S+\.go:\d+: SQLite only: .*$`).FindAllString(string(out), -1)
	passes := regexp.MustCompile(`(?m)^--- PASS: `).FindAllString(string(out), -1)
	t.Logf("on PostgreSQL: %d tests passed, %d failed, %d SQLite only", len(passes), len(fails), len(skips))
	for _, s := range skips {
		t.Log(strings.Join(strings.Fields(s), " "))
	}
	if err != nil || len(fails) > 0 {
		lines := strings.Split(string(out), "\n")
		if len(lines) > 200 {
			lines = lines[len(lines)-200:]
		}
		t.Errorf("the suite fails on PostgreSQL (%v):\n%s", err, strings.Join(lines, "\n"))
	}
}
