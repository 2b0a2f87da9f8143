package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// copyTable is a table CopyTo copies and its key; where, when set,
// selects the rows copied, expr reads a column by an expression of its
// own, and from, when set, is the SQLite table the rows are read from.
type copyTable struct {
	name, key, where, from string
	expr                   map[string]string
}

// copyTables lists the tables CopyTo copies, parents before children: all
// of the store but the schema's own bookkeeping.
func copyTables() []copyTable {
	return []copyTable{
		{name: "work_items", key: "id"},
		{name: "work_item_costs", key: "id"},
		// A row stored before hosts were recorded is the source's legacy
		// host's: it says so in the target, whose own legacy host is
		// whoever opened it first.
		{name: "agent_stream_summaries", key: "work_item_id, file_name", expr: map[string]string{
			"host_id": "COALESCE(host_id, (SELECT NULLIF(value, '') FROM meta WHERE key = 'legacy_host'))"}},
		{name: "stream_files", key: "path"},
		{name: "review_events", key: "work_item_id, file_name"},
		{name: "review_decisions", key: "id"},
		{name: "decision_latest", key: "work_item_id, file_name, turn_id, tool_call_id"},
		// Live claims move with the store, so that a team moving over
		// keeps who reviews what; an expired one is copied as it is
		// (no claim on either side).
		{name: "review_claims", key: "work_item_id, file_name"},
		{name: "meta", key: "key", where: "key != 'legacy_host'"},
		{name: "usage_files", key: "path"},
		{name: "purged_files", key: "path"},
		{name: "session_filter", key: "work_item_id, file_name"},
		{name: "search_docs", key: "id"},
		// SQLite's index keeps no text: its documents are read from
		// search_text (migration 0017).
		{name: "search_fts", key: "rowid", from: "search_text", expr: map[string]string{
			"rowid": "id", "body": "sift_search_body(doc)", "parts": "sift_search_parts(doc)"}},
		{name: "sweep_runs", key: "id"},
		{name: "import_runs", key: "id"},
	}
}

// CopyCount is what CopyTo did to one table.
type CopyCount struct {
	Table string
	// Source is how many rows the SQLite store holds; Copied how many of
	// them this copy wrote; the others were there already.
	Source, Copied int
}

// ErrCopyConflict is returned when the PostgreSQL database holds a
// decision of the same id as one being copied, but a different one:
// copying into a database that another store was copied into, or that
// sift wrote to, would lose a decision.
var ErrCopyConflict = errors.New("the target holds other decisions under the same ids")

// CopyTo copies a SQLite store into a PostgreSQL one (sift migrate): its
// summaries, review events, decisions with their ids, times and
// reviewers, the ingest index, usage, the search index and the rest, each
// table in one transaction, rows already there (by their key) left as
// they are, so that a second copy changes nothing. It then checks that
// every table of the target holds at least the source's rows and every
// decision the same, and moves the target's id counters past the copied
// ids.
func (s *Store) CopyTo(ctx context.Context, dst *Store) ([]CopyCount, error) {
	_, fromSQLite := s.d.(sqliteDialect)
	if _, toPG := dst.d.(pgDialect); !fromSQLite || !toPG {
		return nil, errors.New("copy: the source must be a SQLite store and the target a PostgreSQL one")
	}
	var out []CopyCount
	for _, t := range copyTables() {
		c, err := s.copyTable(ctx, dst, t)
		if err != nil {
			return out, fmt.Errorf("copy %s: %w", t.name, err)
		}
		out = append(out, c)
	}
	for _, seq := range []string{"work_item_costs", "review_decisions", "search_docs", "sweep_runs", "import_runs"} {
		if _, err := dst.w.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+seq+`', 'id'),
			GREATEST((SELECT COALESCE(MAX(id), 0) FROM `+seq+`), 1))`); err != nil {
			return out, fmt.Errorf("copy: id counter of %s: %w", seq, wrapError(err))
		}
	}
	return out, s.verifyCopy(ctx, dst, out)
}

// copyTable copies one table in batches of rows, in one transaction.
func (s *Store) copyTable(ctx context.Context, dst *Store, t copyTable) (CopyCount, error) {
	table, key := t.name, t.key
	c := CopyCount{Table: table}
	cols, err := s.sharedColumns(ctx, dst, table)
	if err != nil {
		return c, err
	}
	bytea, err := dst.byteaColumns(ctx, table)
	if err != nil {
		return c, err
	}
	sel := make([]string, len(cols))
	for i, col := range cols {
		sel[i] = col
		if e, ok := t.expr[col]; ok {
			sel[i] = e
		}
	}
	from := table
	if t.from != "" {
		from = t.from
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM " + from
	if t.where != "" {
		q += " WHERE " + t.where
	}
	rows, err := s.r.QueryContext(ctx, q)
	if err != nil {
		return c, wrapError(err)
	}
	defer rows.Close()
	tx, err := dst.w.BeginTx(ctx, nil)
	if err != nil {
		return c, wrapError(err)
	}
	defer tx.Rollback()
	perBatch := max(1, min(500, 60000/len(cols)))
	var batch []any
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		n := len(batch) / len(cols)
		one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
		q := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " +
			strings.TrimSuffix(strings.Repeat(one+", ", n), ", ") + " ON CONFLICT (" + key + ") DO NOTHING"
		res, err := tx.ExecContext(ctx, q, batch...)
		if err != nil {
			return wrapError(err)
		}
		k, _ := res.RowsAffected()
		c.Copied += int(k)
		batch = batch[:0]
		return nil
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return c, wrapError(err)
		}
		for i, v := range vals {
			vals[i] = pgValue(v, bytea[cols[i]])
		}
		batch = append(batch, vals...)
		c.Source++
		if c.Source%perBatch == 0 {
			if err := flush(); err != nil {
				return c, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return c, wrapError(err)
	}
	if err := flush(); err != nil {
		return c, err
	}
	return c, wrapError(tx.Commit())
}

// pgValue is a value SQLite returned as PostgreSQL's column takes it: a
// BYTEA column takes bytes (SQLite may hold a packed column's short value
// as TEXT), any other a TEXT as a string.
func pgValue(v any, bytea bool) any {
	switch x := v.(type) {
	case string:
		if bytea {
			return []byte(x)
		}
	case []byte:
		if !bytea {
			return string(x)
		}
		return x
	}
	return v
}

// sharedColumns lists the columns of a source table that the target's
// table has too (its own rowid and machine columns are left to it).
func (s *Store) sharedColumns(ctx context.Context, dst *Store, table string) ([]string, error) {
	var src []string
	if table == "search_fts" {
		// An FTS5 table lists no rowid.
		src = []string{"rowid", "body", "parts"}
	} else {
		rows, err := s.r.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, table)
		if err != nil {
			return nil, wrapError(err)
		}
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				rows.Close()
				return nil, wrapError(err)
			}
			src = append(src, n)
		}
		rows.Close()
	}
	have := map[string]bool{}
	rows, err := dst.r.QueryContext(ctx, `SELECT column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = ? AND is_generated = 'NEVER' AND identity_generation IS DISTINCT FROM 'ALWAYS'`, table)
	if err != nil {
		return nil, wrapError(err)
	}
	defer rows.Close()
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, wrapError(err)
		}
		have[n] = true
	}
	if table == "search_fts" {
		have["rowid"] = true
	}
	var out []string
	for _, c := range src {
		if have[c] {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no columns in common")
	}
	return out, wrapError(rows.Err())
}

// byteaColumns returns which columns of a PostgreSQL table are BYTEA.
func (s *Store) byteaColumns(ctx context.Context, table string) (map[string]bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = ? AND data_type = 'bytea'`, table)
	if err != nil {
		return nil, wrapError(err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, wrapError(err)
		}
		out[n] = true
	}
	return out, wrapError(rows.Err())
}

// verifyCopy checks the copy: every table of the target holds at least
// the source's rows, and every copied decision is in the target as it is
// in the source (not another decision under its id).
func (s *Store) verifyCopy(ctx context.Context, dst *Store, counts []CopyCount) error {
	for _, c := range counts {
		var n int
		if err := dst.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+c.Table).Scan(&n); err != nil {
			return fmt.Errorf("verify %s: %w", c.Table, wrapError(err))
		}
		if n < c.Source {
			return fmt.Errorf("verify %s: the target has %d rows, the source %d", c.Table, n, c.Source)
		}
	}
	const dec = `SELECT id, work_item_id, file_name, turn_id, tool_call_id, decision, note, reviewer_id, created_at, supersedes
		FROM review_decisions ORDER BY id`
	want, err := decisionRows(ctx, s.r, dec)
	if err != nil {
		return fmt.Errorf("verify decisions: %w", err)
	}
	got, err := decisionRows(ctx, dst.r, dec)
	if err != nil {
		return fmt.Errorf("verify decisions: %w", err)
	}
	for id, row := range want {
		if got[id] != row {
			return fmt.Errorf("verify decisions: decision %d: %w", id, ErrCopyConflict)
		}
	}
	return nil
}

// decisionRows reads decisions as one string per id.
func decisionRows(ctx context.Context, db *sql.DB, q string) (map[int64]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, wrapError(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id, at, sup int64
		var wi, file, turn, call, kind, note, who string
		if err := rows.Scan(&id, &wi, &file, &turn, &call, &kind, &note, &who, &at, &sup); err != nil {
			return nil, wrapError(err)
		}
		out[id] = fmt.Sprintf("%q %q %q %q %q %q %q %d %d", wi, file, turn, call, kind, note, who, at, sup)
	}
	return out, wrapError(rows.Err())
}
