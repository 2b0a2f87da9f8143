package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

// migrationFS holds the schema of both backends on one version line: a
// version is NNNN_name.sqlite.sql, NNNN_name.pg.sql or both, applied in
// order, and schema_migrations counts the same versions on either
// backend. A version one backend does not need has no file of its
// dialect: PostgreSQL's first file is 0010, its schema up to that version
// in one step.
//
//go:embed migrations/*.sql
var migrationFS embed.FS

// Each migration file's dialect, the last part of its name before .sql.
const (
	dialectSQLite   = "sqlite"
	dialectPostgres = "pg"
)

// schemaSQL is the schema the migrations make, as one script for a new
// database (schema.sql, written by TestSchemaSnapshot -update from a
// database migrated from zero, which the test compares it with): 8 ms
// where the 18 migrations take 25-35, in every first import and every
// test's store. Its first line names the last migration it holds; a
// newer one is applied after it as to any database.
//
//go:embed schema.sql
var schemaSQL string

// migration is one schema step.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations lists the embedded SQLite migrations in version order.
func migrations() ([]migration, error) {
	return readMigrations(migrationFS, "migrations", dialectSQLite)
}

// readMigrations lists the NNNN_name.DIALECT.sql files of a folder of fsys
// in version order.
func readMigrations(fsys fs.FS, dir, dialect string) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".sql")
		dot := strings.LastIndexByte(base, '.')
		stem, d := base[:max(dot, 0)], base[dot+1:]
		num, name, named := strings.Cut(stem, "_")
		v, err := strconv.Atoi(num)
		if !ok || dot < 0 || !named || err != nil || d != dialectSQLite && d != dialectPostgres {
			return nil, fmt.Errorf("migration %s: name is not NNNN_name.sqlite.sql or NNNN_name.pg.sql", e.Name())
		}
		if d != dialect {
			continue
		}
		b, err := fs.ReadFile(fsys, dir+"/"+e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// migrate applies every migration newer than the database's version in one
// transaction: the schema is either fully upgraded or untouched. An
// up-to-date database is only read: opening the store does not wait for
// the write lock, which importers on other processes may hold batch
// after batch. A migration to apply waits for it (whileBusy).
func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	var cur int
	if err := db.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&cur); err == nil &&
		len(ms) > 0 && cur == ms[len(ms)-1].version {
		return nil
	}
	return whileBusy(ctx, func() error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		fresh, err := applySnapshot(ctx, tx, ms)
		if err != nil {
			return err
		}
		applied, err := applyPending(ctx, tx, ms, "INTEGER")
		if err != nil || !applied && !fresh {
			return err
		}
		return tx.Commit()
	})
}

// applySnapshot makes, in tx, the schema of a new database (one that has
// no table yet) from schemaSQL, recording the migrations it holds, and
// reports whether it did.
func applySnapshot(ctx context.Context, tx *sql.Tx, ms []migration) (bool, error) {
	var objects int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_master").Scan(&objects); err != nil || objects > 0 {
		return false, err
	}
	head, _, _ := strings.Cut(schemaSQL, "\n")
	upTo, err := strconv.Atoi(strings.TrimPrefix(head, "-- schema of migration "))
	if err != nil {
		return false, fmt.Errorf("schema.sql: its first line %q names no migration", head)
	}
	if _, err := tx.ExecContext(ctx, schemaSQL); err != nil {
		return false, fmt.Errorf("schema.sql: %w", err)
	}
	now := time.Now().UnixMilli()
	for _, m := range ms {
		if m.version > upTo {
			break
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
			m.version, m.name, now); err != nil {
			return false, err
		}
	}
	return true, nil
}

// ensureMigrationTable makes schema_migrations, with versions of the type
// intType, when missing.
func ensureMigrationTable(ctx context.Context, tx *sql.Tx, intType string) error {
	_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version `+intType+` PRIMARY KEY, name TEXT NOT NULL, applied_at `+intType+` NOT NULL)`)
	return err
}

// applyPending applies, in tx, the migrations of ms newer than the
// database's version, recording each in schema_migrations (made with
// versions of the type intType when missing). It refuses a database whose
// version is newer than every migration. Both backends migrate so, each
// with its own migrations.
func applyPending(ctx context.Context, tx *sql.Tx, ms []migration, intType string) (applied bool, err error) {
	if err := ensureMigrationTable(ctx, tx, intType); err != nil {
		return false, err
	}
	var cur int
	if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&cur); err != nil {
		return false, err
	}
	if n := len(ms); n > 0 && cur > ms[n-1].version {
		return false, fmt.Errorf("database schema version %d is newer than this sift (%d): upgrade sift", cur, ms[n-1].version)
	}
	for _, m := range ms {
		if m.version <= cur {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return false, fmt.Errorf("migration %04d_%s: %w", m.version, m.name, err)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
			m.version, m.name, time.Now().UnixMilli()); err != nil {
			return false, err
		}
		applied = true
	}
	return applied, nil
}
