package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/agentsift/sift/core/proc"
)

// The PostgreSQL backend is the same Store on a pgx connection pool: its
// SQL is the store's with its placeholders rebound (pg_bind.go), its
// schema is its own files on the one migration line (the .pg.sql
// migrations), and where the engines differ the store asks its dialect,
// pgDialect (dialect.go). The driver is pgx through database/sql
// (pgx/v5/stdlib)
// rather than pgx's native interface: every query of the store is written
// against database/sql, so one implementation serves both backends, and
// the native interface's speed (binary rows without database/sql's
// conversions) matters less than not keeping two copies of every query.

// migrationLock is the advisory lock key that serialises the migration of
// a database by several processes opening it at once ("sift" in ASCII).
const migrationLock = 0x73696674

// IsPostgres reports whether a --db value names a PostgreSQL database (a
// postgres:// or postgresql:// URL) rather than a SQLite file.
func IsPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// RedactDSN returns a connection string without its password, for
// messages: a URL's password becomes "xxxxx", a password= key too.
func RedactDSN(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.Scheme != "" {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		q := u.Query()
		if q.Has("password") {
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	return "(a connection string that is not a URL)"
}

// openPostgres opens the PostgreSQL database dsn names and migrates it.
// pgx reads the URL and the libpq environment as psql does: sslmode,
// PGPASSWORD, PGPASSFILE (else ~/.pgpass), PGSSLROOTCERT and the rest.
func openPostgres(dsn string) (*Store, error) {
	name := RedactDSN(dsn)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		// pgx's parse errors may quote the connection string.
		return nil, fmt.Errorf("open store %s: the connection string does not parse", name)
	}
	if _, ok := cfg.RuntimeParams["application_name"]; !ok {
		// The server names each connection's machine: in
		// pg_stat_activity, and on every decision it writes.
		host, _ := os.Hostname()
		cfg.RuntimeParams["application_name"] = "sift@" + host
	}
	c := &pgConnector{inner: stdlib.GetConnector(*cfg), cache: map[string]bound{}}
	db := sql.OpenDB(c)
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	db.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{path: name, d: pgDialect{}, w: db, r: db, now: time.Now, host: proc.HostID(), pgCfg: cfg}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := retryConnect(ctx, func() error { return pgMigrate(ctx, db) }); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", name, oneLine{err})
	}
	// The rows stored before hosts were recorded are the first host's
	// to open the database since (0015_retention.pg.sql), as on SQLite.
	if _, err := db.ExecContext(ctx, `UPDATE meta SET value = ? WHERE key = 'legacy_host' AND value = ''`, s.host); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", name, wrapError(err))
	}
	return s, nil
}

// pgMigrations lists the PostgreSQL migrations in version order.
func pgMigrations() ([]migration, error) {
	return readMigrations(migrationFS, "migrations", dialectPostgres)
}

// pgFirstVersion is the version of PostgreSQL's first migration on the
// line both backends share; sift before the lines merged numbered the
// PostgreSQL migrations on a line of their own, from 1 (pgRenumber).
const pgFirstVersion = 10

// pgRenumber moves a database's record of migrations from the line
// PostgreSQL had of its own onto the shared one, in tx: its 1 (the schema
// up to SQLite's 0010 in one step) is 10, and each later one is the
// SQLite migration it twins, 9 more. A database on the shared line has no
// version below pgFirstVersion, and is left as it is.
func pgRenumber(ctx context.Context, tx *sql.Tx) error {
	var old int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version < ?`, pgFirstVersion).Scan(&old); err != nil || old == 0 {
		return err
	}
	// Two steps, as version is a key: out of the way, then in place.
	for _, q := range []string{
		`UPDATE schema_migrations SET version = -version`,
		`UPDATE schema_migrations SET version = CASE WHEN version = -1 THEN 10 ELSE 9 - version END`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("renumber migrations: %w", err)
		}
	}
	return nil
}

// pgMigrate applies the pending PostgreSQL migrations in one transaction
// that holds an advisory lock: a second process opening the database at
// the same time waits, then finds the schema current.
func pgMigrate(ctx context.Context, db *sql.DB) error {
	ms, err := pgMigrations()
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", int64(migrationLock)); err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	// The migrations' text is PostgreSQL's own: the connection's
	// rebinding leaves it as it is (it has no placeholders).
	if err := ensureMigrationTable(ctx, tx, "BIGINT"); err != nil {
		return err
	}
	if err := pgRenumber(ctx, tx); err != nil {
		return err
	}
	if _, err := applyPending(ctx, tx, ms, "BIGINT"); err != nil {
		return err
	}
	return tx.Commit()
}

// execer is what runs a statement: a pool, a connection or a
// transaction.
type execer interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

// sqliteExec runs a statement only SQLite has (a PRAGMA tuning its cache,
// its sync or its file); on PostgreSQL, where the server owns those, it
// does nothing.
func (s *Store) sqliteExec(ctx context.Context, ex execer, q string) (sql.Result, error) {
	return s.d.sqliteExec(ctx, ex, q)
}

func (sqliteDialect) sqliteExec(ctx context.Context, ex execer, q string) (sql.Result, error) {
	return ex.ExecContext(ctx, q)
}

func (pgDialect) sqliteExec(context.Context, execer, string) (sql.Result, error) {
	return driver.RowsAffected(0), nil
}

// connectTries is how many times Open tries to reach the server, waiting
// twice as long after each failure: a server restarting, or a network
// that is back a moment later, is waited for (0.5 + 1 + 2 s); a server
// that stays away is one error.
const connectTries = 4

// retryConnect runs fn again while it fails to reach the server.
func retryConnect(ctx context.Context, fn func() error) error {
	wait := 500 * time.Millisecond
	for try := 1; ; try++ {
		err := fn()
		var ce *pgconn.ConnectError
		if err == nil || try == connectTries || !errors.As(err, &ce) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// oneLine is an error whose message is one line: pgx lists each address
// it tried on a line of its own.
type oneLine struct{ err error }

// Error returns the message's lines joined by "; ".
func (e oneLine) Error() string {
	return strings.Join(strings.Fields(strings.ReplaceAll(e.err.Error(), "\n", " ; ")), " ")
}

// Unwrap returns the error.
func (e oneLine) Unwrap() error { return e.err }
