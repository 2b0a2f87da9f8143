package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"
)

// migrateUsage is the help line of sift migrate.
const migrateUsage = "migrate --to postgres://…   copy this store (--db, a SQLite file) into a PostgreSQL database; running it again changes nothing"

// runMigrate implements `sift migrate --to URL`: it copies the SQLite
// store into PostgreSQL (store.CopyTo), verifies the copy and prints one
// line per table. The URL is printed without its password.
func runMigrate(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	to := fs.String("to", "", "the PostgreSQL database to copy into: postgres://user@host/db (a password from PGPASSFILE or ~/.pgpass)")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return fail(stderr, "migrate", err)
	}
	if !store.IsPostgres(*to) {
		return fail(stderr, "migrate", errors.New("--to wants a postgres:// or postgresql:// URL"))
	}
	src, err := sf.Open()
	if err != nil {
		return fail(stderr, "migrate", err)
	}
	defer src.Close()
	dst, err := store.Open(*to)
	if err != nil {
		return fail(stderr, "migrate", err)
	}
	defer dst.Close()
	ctx, stop := signalContext()
	defer stop()
	counts, err := src.CopyTo(ctx, dst)
	if err != nil {
		return fail(stderr, "migrate", err)
	}
	return reportMigrate(stdout, src, dst, counts)
}

// reportMigrate prints what the copy did.
func reportMigrate(stdout io.Writer, src, dst *store.Store, counts []store.CopyCount) int {
	total, copied := 0, 0
	for _, c := range counts {
		fmt.Fprintf(stdout, "%-24s %8d rows, %8d copied\n", c.Table, c.Source, c.Copied)
		total += c.Source
		copied += c.Copied
	}
	fmt.Fprintln(stdout, textsafe.Inert(fmt.Sprintf("migrated %s into %s: %d rows, %d copied, %d there already; counts verified",
		src.Path(), dst.Path(), total, copied, total-copied)))
	return 0
}
