package store

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite schema.sql from the migrations")

// TestSchemaSnapshot checks that a new store made from schema.sql is the
// store the migrations make from zero: the same tables, indexes,
// triggers and virtual tables, the same rows (the seeds of meta and the
// full-text index's settings), the same recorded migrations. With
// -update it writes schema.sql from the migrated store.
func TestSchemaSnapshot(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "schema.sql is SQLite's")
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	stepped := rawStore(t, func(ctx context.Context, tx *sql.Tx) error {
		_, err := applyPending(ctx, tx, ms, "INTEGER")
		return err
	})
	if *update {
		writeSchema(t, stepped, ms[len(ms)-1].version)
		return
	}
	// As migrate makes a new store: the snapshot, then any migration it
	// does not hold yet.
	snapshot := rawStore(t, func(ctx context.Context, tx *sql.Tx) error {
		if fresh, err := applySnapshot(ctx, tx, ms); err != nil || !fresh {
			return fmt.Errorf("snapshot: fresh %v, %v", fresh, err)
		}
		_, err := applyPending(ctx, tx, ms, "INTEGER")
		return err
	})
	var head string
	head, _, _ = strings.Cut(schemaSQL, "\n")
	if want := fmt.Sprintf("-- schema of migration %d", ms[len(ms)-1].version); head != want {
		t.Errorf("schema.sql holds %q, the last migration is %q: go test ./store -run TestSchemaSnapshot -update", head, want)
	}
	a, b := dumpStore(t, snapshot), dumpStore(t, stepped)
	if !slices.Equal(a, b) {
		for _, l := range a {
			if !slices.Contains(b, l) {
				t.Errorf("only from schema.sql: %.200s", l)
			}
		}
		for _, l := range b {
			if !slices.Contains(a, l) {
				t.Errorf("only from the migrations: %.200s", l)
			}
		}
		t.Error("schema.sql differs from the migrations: go test ./store -run TestSchemaSnapshot -update")
	}
}

// rawStore makes a new database file as Open does, and its schema by
// make, in one transaction; it returns the database, closed with the
// test.
func rawStore(t *testing.T, make func(context.Context, *sql.Tx) error) *sql.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sift.db")
	if err := create(path); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", dsnWAL(path, false, 0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if err := make(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return db
}

// dumpStore lists a store's schema objects and every row of its tables
// but the full-text index's data (the applied_at of the recorded
// migrations left out), each a line, sorted.
func dumpStore(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var out, tables []string
	for _, row := range dumpRows(t, &Store{r: db}, `SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`) {
		out = append(out, row)
	}
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
		AND name NOT IN ('search_fts', 'search_fts_data', 'search_fts_idx', 'search_fts_docsize') ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	for _, n := range tables {
		q := `SELECT * FROM "` + n + `"`
		if n == "schema_migrations" {
			q = `SELECT version, name FROM schema_migrations`
		}
		for _, row := range dumpRows(t, &Store{r: db}, q) {
			out = append(out, n+": "+row)
		}
	}
	slices.Sort(out)
	return out
}

// writeSchema writes schema.sql: the schema objects of a database
// migrated from zero, in the order they were made (the full-text table's
// own tables are made with it), then its seed rows.
func writeSchema(t *testing.T, db *sql.DB, version int) {
	t.Helper()
	rows, err := db.Query(`SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "-- schema of migration %d\n", version)
	b.WriteString("-- Written by `go test ./store -run TestSchemaSnapshot -update` from a database\n" +
		"-- migrated from zero: edit the migrations, not this file.\n")
	for rows.Next() {
		var name, q string
		if err := rows.Scan(&name, &q); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(name, "search_fts_") {
			continue
		}
		b.WriteString("\n" + q + ";\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n-- Seeds.\nINSERT INTO meta (key, value) VALUES ('legacy_host', '');\n" +
		"INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 1);\n")
	if err := os.WriteFile("schema.sql", []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
