// Package store keeps sift's durable state in one SQLite file: work items
// and their invocations, run summaries, review events, the ingest index of
// stream files, and reviewers' decisions. It is SQL only: core/ingest
// finds and reads the stream files and hands the store finished rows
// (ingest.Store), and core/capture deletes old ones.
//
// The stream files are the source of truth for runs: everything but
// decisions can be rebuilt from them (ingest.Rebuild). Decisions are append-only
// events and are never lost: a decision acknowledged by Decide is on disk.
//
// The same Store runs on a PostgreSQL database that a team shares when
// Open is given a postgres:// URL (pg_open.go): one SQL, what differs
// asked of its dialect (dialect.go), its own files on the one migration
// line, one pool.
//
// A Store holds two connection pools on the same file: one writer
// connection (SQLite allows one writer at a time; serialising writers in the
// process avoids "database is locked" between them) and a pool of readers,
// which WAL mode lets run while the writer commits.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/agentsift/sift/core/proc"
)

// Store is an open sift database. It is safe for concurrent use.
type Store struct {
	path string
	// w is the writer pool: exactly one connection.
	w *sql.DB
	// r is the read pool.
	r *sql.DB
	// now is the clock; tests replace it.
	now func() time.Time
	// host names this machine (Owner.Host): the rows it writes say so,
	// and retention judges the files of those rows only.
	host string
	// d is the engine's dialect (dialect.go): what the store asks of it
	// where SQLite and PostgreSQL differ. On PostgreSQL (pg_open.go) w
	// and r are one pool.
	d dialect
	// forcePlan makes every search with words read by one plan
	// (search_read.go); tests set it, the zero value lets the store
	// choose.
	forcePlan readPlan
	// unprepared makes the import's writer make each search document
	// itself, as it does one with notes (tests: TestPreparedDocs).
	unprepared bool
	// ver is the connection Changed reads the data version on, pinned
	// because the version is per connection; verDB its pool. Both are nil
	// until the first Changed; verMu guards them.
	verMu sync.Mutex
	ver   *sql.Conn
	verDB *sql.DB
	// pgCfg is a PostgreSQL store's connection configuration, which its
	// change feed connects with; feed is the feed, nil until the first
	// Changed (pg_feed.go). verMu guards feed.
	pgCfg *pgx.ConnConfig
	feed  *pgFeed
}

// busyTimeout is how long a connection waits for another process's lock.
const busyTimeout = 10 * time.Second

// DefaultPath returns the default database file:
// $XDG_DATA_HOME/sift/sift.db, else ~/.local/share/sift/sift.db.
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "sift", "sift.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("default store path: %w", err)
	}
	return filepath.Join(home, ".local", "share", "sift", "sift.db"), nil
}

// dsn builds the modernc DSN for a file. busy_timeout comes first so that it
// applies while the other pragmas take their locks.
func dsn(path string, readOnly bool) string {
	return dsnWAL(path, readOnly, 0)
}

// dsnWAL is dsn with the writer's WAL auto-checkpoint threshold in pages;
// 0 leaves SQLite's default.
func dsnWAL(path string, readOnly bool, walPages int) string {
	q := url.Values{}
	pragmas := []string{
		fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()),
		// Incremental auto-vacuum (a sweep gives freed pages back to the
		// file system) is set by create, on a new database only: here,
		// on every connection, it took the write lock, so that a reader
		// or a store opened while an importer wrote waited for it.
		"journal_mode(WAL)",
		"foreign_keys(1)",
		"synchronous(NORMAL)",
	}
	if walPages > 0 && !readOnly {
		pragmas = append(pragmas, fmt.Sprintf("wal_autocheckpoint(%d)", walPages))
	}
	if !readOnly {
		// A statement that may fail halfway inside a transaction keeps
		// the pages it changes in a statement journal, a temporary file
		// by default that spills at its first 64 KiB page: an import of
		// 367 MB of history wrote 275 MB to such files (to make a 40 MB
		// database). In memory they hold one statement's pages.
		pragmas = append(pragmas, "temp_store(MEMORY)")
	}
	if readOnly {
		// The readers map the file rather than copy its pages into each
		// connection's small cache (2 MB, 31 of the store's 64 KiB
		// pages): a search looks up thousands of sessions by their key
		// in a 13 MB index on 100,000 sessions, and copied every page
		// it touched again (search_read.go).
		pragmas = append(pragmas, "query_only(1)", fmt.Sprintf("mmap_size(%d)", readerMmapBytes))
	}
	q["_pragma"] = pragmas
	if !readOnly {
		q.Set("_txlock", "immediate")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// readerMmapBytes is how much of the database file a reader maps.
const readerMmapBytes = 1 << 30

// pageSize is the page size of a new database: SQLite's largest. An
// import writes about as many bytes of summaries as it reads of streams,
// each page twice (to the WAL, then by the checkpoint into the file), one
// system call per page; 64 KiB pages make that a sixteenth of the calls of
// the default 4 KiB, which cuts an import's CPU time by about a sixth.
const pageSize = 65536

// create gives a database file that is missing or empty its page size.
// The size must be set before anything else touches the file: auto_vacuum
// and journal_mode fix it at the default (the DSN sets journal_mode on
// every connection), and a database in WAL mode cannot change it
// afterwards. An
// existing database keeps the page size it was created with.
func create(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		return nil
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath())
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range []string{
		fmt.Sprintf("PRAGMA busy_timeout=%d", busyTimeout.Milliseconds()),
		fmt.Sprintf("PRAGMA page_size=%d", pageSize),
		"PRAGMA auto_vacuum=INCREMENTAL",
		"PRAGMA journal_mode=WAL",
	} {
		if _, err := db.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// walCheckpointBytes is how much the WAL holds before a commit copies it
// into the database: 16 MB, a few import batches. Each checkpoint syncs
// the WAL and the database, so checkpointing at every batch (SQLite's
// default of 1000 pages, 4 MB in its default page) spent a tenth of a
// stream import on them; a larger WAL leaves a longer last checkpoint for
// closing the store, after the last file, with nothing to overlap it
// (32 MB cost the history import 5%). Measured on the import benchmarks.
const walCheckpointBytes = 16 << 20

// walCheckpointPages is the auto-checkpoint threshold in pages of the
// database at path, read from its header (offset 16, big-endian; 1 means
// 65536); 0 (SQLite's default) when the header cannot be read.
func walCheckpointPages(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	var h [18]byte
	if _, err := f.ReadAt(h[:], 0); err != nil {
		return 0
	}
	size := int(h[16])<<8 | int(h[17])
	if size == 1 {
		size = 65536
	}
	if size < 512 {
		return 0
	}
	return max(1, walCheckpointBytes/size)
}

// createPrivate creates a missing database file, and the folders above it,
// readable by its owner only (0600 and 0700, whatever the umask): the
// database holds prompts, outputs and any secret redaction missed.
// SQLite's unix VFS gives the -wal and -shm files the database file's
// mode. An existing file or folder keeps its mode: changing it silently
// could break a setup someone chose; sift doctor reports it.
func createPrivate(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// Open opens (creating when missing) the database at path, switches it to
// WAL, and applies the pending migrations in one transaction. A file that is
// not a sift database, or is corrupt, is one error naming the file and what
// to do about it.
//
// A postgres:// or postgresql:// URL opens a PostgreSQL database instead
// (pg_open.go).
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("open store: empty path")
	}
	if IsPostgres(path) {
		return openPostgres(path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := createPrivate(abs); err != nil {
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	if err := create(abs); err != nil {
		return nil, openError(abs, err)
	}
	s := &Store{path: abs, d: sqliteDialect{}, now: time.Now, host: proc.HostID()}
	if s.w, err = sql.Open("sqlite", dsnWAL(abs, false, walCheckpointPages(abs))); err != nil {
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetMaxIdleConns(1)
	s.w.SetConnMaxLifetime(0)
	s.w.SetConnMaxIdleTime(0)
	if err := s.init(); err != nil {
		s.w.Close()
		return nil, openError(abs, err)
	}
	if s.r, err = sql.Open("sqlite", dsn(abs, true)); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	n := max(4, runtime.NumCPU())
	s.r.SetMaxOpenConns(n)
	s.r.SetMaxIdleConns(n)
	return s, nil
}

// init checks WAL took effect and migrates.
func (s *Store) init() error {
	ctx := context.Background()
	var mode string
	if err := s.w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode is %q, not wal (is the file on a network file system?)", mode)
	}
	if err := migrate(ctx, s.w); err != nil {
		return err
	}
	// The rows stored before hosts were recorded are the first host's
	// to open the database since (migration 0015). Read first: once that
	// is settled, opening the store writes nothing.
	var unset int
	if err := s.w.QueryRowContext(ctx, `SELECT COUNT(*) FROM meta WHERE key = 'legacy_host' AND value = ''`).Scan(&unset); err != nil || unset == 0 {
		return err
	}
	return whileBusy(ctx, func() error {
		_, err := s.w.ExecContext(ctx, `UPDATE meta SET value = ? WHERE key = 'legacy_host' AND value = ''`, s.host)
		return err
	})
}

// openError turns a driver error at open time into one line a user can act
// on.
func openError(path string, err error) error {
	msg := err.Error()
	if strings.Contains(msg, "not a database") || strings.Contains(msg, "malformed") ||
		strings.Contains(msg, "corrupt") || strings.Contains(msg, "(26)") || strings.Contains(msg, "(11)") {
		return fmt.Errorf("open store %s: the file is not a sift database or is corrupt (%v); "+
			"move it aside and run `sift rebuild --db %s` to recreate it from the stream files", path, err, path)
	}
	return fmt.Errorf("open store %s: %w", path, err)
}

// Path returns the database file's absolute path; for PostgreSQL, its URL
// without the password.
func (s *Store) Path() string { return s.path }

// Close closes both pools and the connection Changed pinned.
func (s *Store) Close() error {
	var errR error
	if s.r != nil && s.r != s.w {
		errR = s.r.Close()
	}
	return errors.Join(s.closeVersion(), s.w.Close(), errR)
}

// ms converts a time to unix milliseconds; the zero time is NULL.
func ms(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: true}
}

// msPtr converts an optional time to unix milliseconds.
func msPtr(t *time.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return ms(*t)
}

// fromMs converts unix milliseconds back; NULL is the zero time.
func fromMs(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.UnixMilli(v.Int64).UTC()
}
