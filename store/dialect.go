package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// A dialect is what the store's two engines do differently. The store's
// SQL is written once, portable where the engines agree (SQLite 3.44 and
// PostgreSQL both take `IS NOT DISTINCT FROM`, `NULLS FIRST/LAST`,
// `string_agg`, `ON CONFLICT … RETURNING`); what truly differs is asked of
// the store's dialect: a few fragments of SQL (case-insensitive LIKE,
// SQLite's planner hints, full-text match, JSON), and whole steps where
// the engines work differently (full-text search, the change feed, bulk
// writes, locks). sqliteDialect and pgDialect are the two; the shared
// code never asks which engine it runs on.
type dialect interface {
	// like is the operator of a case-insensitive LIKE: SQLite's LIKE
	// ignores ASCII case, PostgreSQL's does not (ILIKE does).
	like() string
	// indexedBy is the planner hint that reads a table through index, to
	// follow the table's name (SQLite's INDEXED BY), or nothing.
	indexedBy(index string) string
	// orderedJoin is the inner join whose order the planner keeps
	// (SQLite's CROSS JOIN), taking ON like any JOIN.
	orderedJoin() string
	// match is the condition that the full-text table's document matches
	// the expression of the next placeholder (an FTS5 expression).
	match(fts string) string
	// jsonText is the text of a top-level key of a JSON text column, or
	// NULL.
	jsonText(col, key string) string
	// jsonSetText is a JSON text column with a top-level key set to a
	// text value (an expression).
	jsonSetText(col, key, value string) string
	// jsonObject is a JSON object of key and value expressions, pairs in
	// order, values as text.
	jsonObject(pairs ...string) string
	// jsonValues is a table of a JSON array's values as text, named
	// alias, with one column named value.
	jsonValues(col, alias string) string
	// markStaleSQL ends a run whose process is gone (ReapStaleRuns):
	// ?1 the end, ?2 the pid, ?3 now, ?4 the row.
	markStaleSQL() string

	// changed is Store.Changed's data version; stopFeed lets go of what
	// it keeps open, for Close; wake is what WaitChanged waits on between
	// its polls, and listening that a notice will wake it (no poll).
	changed(ctx context.Context, s *Store) (uint64, error)
	stopFeed(s *Store)
	wake(ctx context.Context, s *Store) (wake <-chan struct{}, listening bool)
	// lockWrites takes the writes lock alone in an import's transaction;
	// lockSession takes it shared and a session's lock alone in a
	// decision's.
	lockWrites(ctx context.Context, tx *sql.Tx) error
	lockSession(ctx context.Context, tx *sql.Tx, k review.SessionKey) error
	// storedJSON is a JSON text as the engine's JSON functions wrote it,
	// as SQLite's write it.
	storedJSON(j string) string
	// writeRows writes an import's batch of sessions; indexSessions their
	// triage rank and tool names, in its transaction; rankSession one
	// session's review state and rank, in a decision's.
	writeRows(ctx context.Context, s *Store, rows []*sessionRow, cf costFiles) error
	indexSessions(ctx context.Context, tx *sql.Tx, rows []*sessionRow) error
	rankSession(ctx context.Context, tx *sql.Tx, k review.SessionKey) error

	// The search index (search*.go): the statements of a document's
	// writer, a document's write, a session row's document made ready by
	// an import's reader, the reset of a rebuild, a stored document's
	// read, a search's count of its matches, and a session's text with
	// its matches to mark.
	docStatements() docStatements
	writeDoc(ctx context.Context, w *docWriter, k review.SessionKey, d *search.Doc, pre *preparedDoc) error
	prepareRowDoc(r *sessionRow) error
	resetSearchIndex(ctx context.Context, tx *sql.Tx) error
	readSearchText(ctx context.Context, q rowQuerier, k review.SessionKey) (string, []search.Part, error)
	countMatches(ctx context.Context, s *Store, r *searchRead, sq *search.Query) error
	matchedText(ctx context.Context, s *Store, k review.SessionKey, sq *search.Query) (string, []search.Part, error)

	// searchTextTable is the table of the search index's text, as
	// redaction rewrites it; disableTrigger switches an append-only
	// table's trigger off in tx and returns the statement that puts it
	// back.
	searchTextTable() redactTable
	disableTrigger(ctx context.Context, tx *sql.Tx, table, trigger string) (string, error)
	// sqliteExec runs a statement only SQLite has (a PRAGMA tuning its
	// cache, its sync or its file); PostgreSQL's server owns those.
	sqliteExec(ctx context.Context, ex execer, q string) (sql.Result, error)
}

// sqliteDialect is SQLite's.
type sqliteDialect struct{}

func (sqliteDialect) like() string                  { return "LIKE" }
func (sqliteDialect) indexedBy(index string) string { return " INDEXED BY " + index }
func (sqliteDialect) orderedJoin() string           { return "CROSS JOIN" }
func (sqliteDialect) match(fts string) string       { return fts + " MATCH ?" }
func (sqliteDialect) jsonText(col, key string) string {
	return "json_extract(" + col + ", '$." + key + "')"
}
func (sqliteDialect) jsonSetText(col, key, value string) string {
	return "json_set(" + col + ", '$." + key + "', " + value + ")"
}
func (sqliteDialect) jsonObject(pairs ...string) string {
	return "json_object(" + jsonPairs(pairs) + ")"
}
func (sqliteDialect) jsonValues(col, alias string) string {
	return "json_each(" + col + ") " + alias
}

func (sqliteDialect) markStaleSQL() string { return sqliteMarkStaleSQL }

// pgDialect is PostgreSQL's (pg_*.go).
type pgDialect struct{}

func (pgDialect) like() string            { return "ILIKE" }
func (pgDialect) indexedBy(string) string { return "" }
func (pgDialect) orderedJoin() string     { return "JOIN" }
func (pgDialect) match(fts string) string { return fts + ".words @@ sift_fts_query(?)" }
func (pgDialect) jsonText(col, key string) string {
	return "((" + col + ")::jsonb ->> '" + key + "')"
}
func (pgDialect) jsonSetText(col, key, value string) string {
	return "jsonb_set((" + col + ")::jsonb, '{" + key + "}', to_jsonb(CAST(" + value + " AS TEXT)))::text"
}
func (pgDialect) jsonObject(pairs ...string) string {
	return "json_build_object(" + jsonPairs(pairs) + ")::text"
}
func (pgDialect) jsonValues(col, alias string) string {
	return "jsonb_array_elements_text((" + col + ")::jsonb) AS " + alias + "(value)"
}

func (pgDialect) markStaleSQL() string { return pgMarkStaleSQL }

// jsonPairs lists the pairs of a JSON object's expressions, each value
// cast to text (a placeholder's type is otherwise unknown to PostgreSQL).
func jsonPairs(pairs []string) string {
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteString(", ")
		}
		if i%2 == 1 {
			p = "CAST(" + p + " AS TEXT)"
		}
		b.WriteString(p)
	}
	return b.String()
}

// countOf is the portable count of the rows where cond holds: SQLite sums
// a comparison as 0 or 1, PostgreSQL has no sum of booleans.
func countOf(cond string) string { return "SUM(CASE WHEN " + cond + " THEN 1 ELSE 0 END)" }

func (sqliteDialect) storedJSON(j string) string { return j }
func (pgDialect) storedJSON(j string) string     { return pgCompactJSON(j) }
