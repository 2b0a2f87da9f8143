package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// valueKind says how a stored value is redacted.
type valueKind uint8

const (
	// textValue is plain text: Redactor.Text.
	textValue valueKind = iota
	// jsonValue is JSON text: Redactor.JSON, which keeps it valid JSON.
	jsonValue
	// packedValue is JSON stored packed or plain (pack.go): unpacked,
	// redacted as JSON and packed again.
	packedValue
	// searchTextValue is a stored search document (search_text.go): its
	// body redacted as text, its parts as JSON, and packed again.
	searchTextValue
)

// redactTable names the columns of one table that hold text from the
// streams or from reviewers.
type redactTable struct {
	name string
	cols []string
	kind []valueKind
	// appendOnly names the trigger that keeps the table append-only; it
	// is dropped and re-created inside the reapply's transaction.
	appendOnly string
}

// redactTables lists every stored value that text from a stream or a
// reviewer reaches: the summaries (final message, the list row's JSON,
// tool calls, stalls, packed turns, model and harness session id), the
// review events, the sessions' tool names, the usage rows' model names and
// session ids, the decisions' notes and reviewer ids, and the search
// index's text (its
// lines stay lines: a replacement never spans one). The index deletes a
// replaced text's words at once (secure-delete, migration 0008); on
// SQLite it keeps no text of its own, and its documents' triggers index a
// rewritten one (search_text, migration 0017).
func redactTables(d dialect) []redactTable {
	search := d.searchTextTable()
	return []redactTable{
		{name: "agent_stream_summaries",
			cols: []string{"final_assistant_message", "brief_json", "tool_calls_json", "stalls_json", "turns_json", "model", "session_id"},
			kind: []valueKind{textValue, jsonValue, jsonValue, jsonValue, packedValue, textValue, textValue}},
		{name: "review_events", cols: []string{"events_json"}, kind: []valueKind{packedValue}},
		{name: "session_filter", cols: []string{"tool_names"}, kind: []valueKind{jsonValue}},
		{name: "usage_files", cols: []string{"models", "session_id"}, kind: []valueKind{textValue, textValue}},
		{name: "review_decisions", cols: []string{"note", "reviewer_id"}, kind: []valueKind{textValue, textValue}, appendOnly: "review_decisions_no_update"},
		search,
	}
}

// RedactCount is what ReapplyRedaction changed in one table.
type RedactCount struct {
	Table string
	// Values counts the values (cells) changed; Rows the rows holding
	// them.
	Values, Rows int
}

// Redactor is the redaction ReapplyRedaction applies: the program's
// (core/redact), which the store does not know. Text redacts plain text;
// JSON redacts the strings of a JSON document and keeps it valid.
type Redactor struct {
	Text func([]byte) []byte
	JSON func([]byte) []byte
}

// reapplyBatchBytes bounds the values one batch holds in memory.
const reapplyBatchBytes = 16 << 20

// ReapplyRedaction applies today's redaction rules (red: core/redact's) to what
// is already stored (see redactTables) and reports, per table, how many
// values changed. Running it again changes nothing.
//
// It writes in batches of rows, each its own transaction, with
// secure_delete on, so that the replaced text is overwritten in the file
// rather than left in free space, and checkpoints the WAL at the end.
// review_decisions is append-only through a trigger: the notes are
// rewritten in one transaction that drops the trigger and re-creates it
// from its own stored SQL before committing, so no other writer ever sees
// the table without it.
func (s *Store) ReapplyRedaction(ctx context.Context, red Redactor) ([]RedactCount, error) {
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("reapply redaction: %w", wrapError(err))
	}
	defer conn.Close()
	if _, err := s.sqliteExec(ctx, conn, "PRAGMA secure_delete = ON"); err != nil {
		return nil, fmt.Errorf("reapply redaction: %w", wrapError(err))
	}
	defer s.sqliteExec(context.WithoutCancel(ctx), conn, "PRAGMA secure_delete = OFF")
	var out []RedactCount
	for _, t := range redactTables(s.d) {
		c, err := reapplyTable(ctx, conn, t, s.d, red)
		if err != nil {
			return out, fmt.Errorf("reapply redaction to %s: %w", t.name, err)
		}
		out = append(out, c)
	}
	if _, err := s.sqliteExec(ctx, conn, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return out, fmt.Errorf("reapply redaction: checkpoint: %w", wrapError(err))
	}
	return out, nil
}

// reapplyTable redacts one table's columns, in batches by rowid; an
// append-only table in one transaction.
func reapplyTable(ctx context.Context, conn *sql.Conn, t redactTable, d dialect, red Redactor) (RedactCount, error) {
	c := RedactCount{Table: t.name}
	var tx *sql.Tx
	var trigger string
	begin := func() error {
		var err error
		if tx, err = conn.BeginTx(ctx, nil); err != nil {
			return wrapError(err)
		}
		if t.appendOnly == "" {
			return nil
		}
		trigger, err = d.disableTrigger(ctx, tx, t.name, t.appendOnly)
		return err
	}
	commit := func() error {
		if t.appendOnly != "" {
			if _, err := tx.ExecContext(ctx, trigger); err != nil {
				return fmt.Errorf("re-create trigger %s: %w", t.appendOnly, wrapError(err))
			}
		}
		return wrapError(tx.Commit())
	}
	if err := begin(); err != nil {
		if tx != nil {
			tx.Rollback()
		}
		return c, err
	}
	defer func() { tx.Rollback() }()
	sel := "SELECT rowid, " + strings.Join(t.cols, ", ") + " FROM " + t.name + " WHERE rowid > ? ORDER BY rowid"
	var after int64
	for {
		batch, err := readBatch(ctx, tx, sel, after, len(t.cols))
		if err != nil {
			return c, err
		}
		if len(batch) == 0 {
			break
		}
		after = batch[len(batch)-1].rowid
		for _, r := range batch {
			var set []string
			var args []any
			for i, v := range r.vals {
				nv, changed, err := redactValue(v, t.kind[i], red)
				if err != nil {
					return c, fmt.Errorf("row %d %s: %w", r.rowid, t.cols[i], err)
				}
				if changed {
					set = append(set, t.cols[i]+" = ?")
					args = append(args, nv)
				}
			}
			if len(set) == 0 {
				continue
			}
			args = append(args, r.rowid)
			if _, err := tx.ExecContext(ctx, "UPDATE "+t.name+" SET "+strings.Join(set, ", ")+" WHERE rowid = ?", args...); err != nil {
				return c, wrapError(err)
			}
			c.Values += len(set)
			c.Rows++
		}
		if t.appendOnly == "" {
			if err := commit(); err != nil {
				return c, err
			}
			if err := begin(); err != nil {
				return c, err
			}
		}
	}
	return c, commit()
}

// storedRow is one row's rowid and values, as the driver returned them
// (string for TEXT, []byte for BLOB, nil for NULL).
type storedRow struct {
	rowid int64
	vals  []any
}

// readBatch reads the rows after rowid `after`, up to reapplyBatchBytes of
// values.
func readBatch(ctx context.Context, tx *sql.Tx, sel string, after int64, ncols int) ([]storedRow, error) {
	rows, err := tx.QueryContext(ctx, sel, after)
	if err != nil {
		return nil, wrapError(err)
	}
	defer rows.Close()
	var out []storedRow
	size := 0
	for size < reapplyBatchBytes && rows.Next() {
		r := storedRow{vals: make([]any, ncols)}
		dst := []any{&r.rowid}
		for i := range r.vals {
			dst = append(dst, &r.vals[i])
		}
		if err := rows.Scan(dst...); err != nil {
			return nil, err
		}
		for i, v := range r.vals {
			switch v := v.(type) {
			case []byte:
				r.vals[i] = bytes.Clone(v)
				size += len(v)
			case string:
				size += len(v)
			}
		}
		out = append(out, r)
	}
	return out, wrapError(rows.Err())
}

// redactValue redacts one stored value, keeping its storage type (a
// BLOB stays a BLOB, TEXT stays TEXT), and reports whether it changed.
func redactValue(v any, kind valueKind, red Redactor) (any, bool, error) {
	var b []byte
	switch v := v.(type) {
	case []byte:
		b = v
	case string:
		b = []byte(v)
	default:
		return v, false, nil // NULL or a number: no text
	}
	var nb []byte
	switch kind {
	case textValue:
		nb = red.Text(b)
	case jsonValue:
		nb = red.JSON(b)
	case packedValue:
		j, err := unpackJSON(b)
		if err != nil {
			return nil, false, err
		}
		r := red.JSON(j)
		if bytes.Equal(r, j) {
			return v, false, nil
		}
		nb = packRaw(r)
	case searchTextValue:
		t, err := unpackSearchText(b)
		if err != nil {
			return nil, false, err
		}
		// The tags are of an agent, flags and an outcome: names, never
		// a stream's text.
		rb, rp := string(red.Text([]byte(t.body))), red.JSON(t.parts)
		if rb == t.body && bytes.Equal(rp, t.parts) {
			return v, false, nil
		}
		nb = packSearchText(searchText{body: rb, tags: t.tags, parts: rp})
	}
	if bytes.Equal(nb, b) {
		return v, false, nil
	}
	if _, ok := v.(string); ok {
		return string(nb), true, nil
	}
	return nb, true, nil
}

// packRaw returns the stored form of JSON text, as encodePacked would
// store the value it encodes.
func packRaw(j []byte) []byte {
	if len(j) < packMin {
		return bytes.Clone(j)
	}
	sc := scratch.Get().(*packScratch)
	defer scratch.Put(sc)
	return sc.pack(j)
}

// searchTextTable is SQLite's search_text: its documents packed (the
// index keeps no text of its own).
func (sqliteDialect) searchTextTable() redactTable {
	return redactTable{name: "search_text", cols: []string{"doc"}, kind: []valueKind{searchTextValue}}
}

// searchTextTable is PostgreSQL's search_fts: text and parts' JSON.
func (pgDialect) searchTextTable() redactTable {
	return redactTable{name: "search_fts", cols: []string{"body", "parts"}, kind: []valueKind{textValue, jsonValue}}
}

// disableTrigger drops a trigger on SQLite, in tx, and returns its
// definition, which creates it again.
func (sqliteDialect) disableTrigger(ctx context.Context, tx *sql.Tx, _, trigger string) (string, error) {
	var def string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?`,
		trigger).Scan(&def); err != nil {
		return "", fmt.Errorf("trigger %s: %w", trigger, wrapError(err))
	}
	_, err := tx.ExecContext(ctx, `DROP TRIGGER "`+trigger+`"`)
	return def, wrapError(err)
}

// disableTrigger switches a trigger off on PostgreSQL, in tx: no other
// writer sees it off.
func (pgDialect) disableTrigger(ctx context.Context, tx *sql.Tx, table, trigger string) (string, error) {
	_, err := tx.ExecContext(ctx, `ALTER TABLE `+table+` DISABLE TRIGGER `+trigger)
	return `ALTER TABLE ` + table + ` ENABLE TRIGGER ` + trigger, wrapError(err)
}
