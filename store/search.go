package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/summary"
)

// The search index (migration 0008): one document per session, the text
// core/search.NewDoc builds of it, in the full-text table search_fts, and
// where each of its lines is in the session in search_docs. It is kept in
// step with the summaries:
//
//   - an import writes a session's document in the transaction that
//     writes its summary (indexSearch), with the notes of its decisions;
//   - a decision with a note adds the note (indexNote);
//   - a summary that goes (a sweep, a purge, a rebuild) takes its
//     document with it: search_docs' foreign key and trigger;
//   - a rebuild empties the index at once (resetSearchIndex);
//   - sessions stored before the index are indexed from their stored
//     summaries (IndexMissing).

// searchDoc is the document of a session an import writes: built by the
// import's readers, with the summary's lists, before they are dropped.
func searchDoc(sum *summary.Summary, pieces []search.Piece) *search.Doc {
	return search.NewDoc(sum, pieces)
}

// docWriter writes search documents in one transaction.
type docWriter struct {
	notes, upsert, drop, insert *sql.Stmt
}

func newDocWriter(ctx context.Context, tx *sql.Tx) (*docWriter, error) {
	w := &docWriter{}
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.notes, `SELECT note, turn_id, tool_call_id FROM review_decisions
			WHERE work_item_id = ? AND file_name = ? AND note != '' ORDER BY id`},
		{&w.upsert, `INSERT INTO search_docs (work_item_id, file_name) VALUES (?, ?)
			ON CONFLICT (work_item_id, file_name) DO UPDATE SET work_item_id = excluded.work_item_id RETURNING id`},
		{&w.drop, `DELETE FROM search_fts WHERE rowid = ?`},
		{&w.insert, `INSERT INTO search_fts (rowid, body, parts) VALUES (?, ?, ?)`},
	} {
		st, err := tx.PrepareContext(ctx, p.sql)
		if err != nil {
			w.close()
			return nil, fmt.Errorf("search index: %w", wrapError(err))
		}
		*p.dst = st
	}
	return w, nil
}

func (w *docWriter) close() {
	for _, st := range []*sql.Stmt{w.notes, w.upsert, w.drop, w.insert} {
		if st != nil {
			st.Close()
		}
	}
}

// addNotes adds the notes of a session's decisions to its document.
func (w *docWriter) addNotes(ctx context.Context, k review.SessionKey, d *search.Doc) error {
	rows, err := w.notes.QueryContext(ctx, k.WorkItemID, k.FileName)
	if err != nil {
		return wrapError(err)
	}
	defer rows.Close()
	for rows.Next() {
		var note string
		var at search.Location
		if err := rows.Scan(&note, &at.TurnID, &at.CallID); err != nil {
			return err
		}
		d.Add(search.InNote, note, at)
	}
	return wrapError(rows.Err())
}

// write writes a session's document in place of the one it had, under
// its id.
func (w *docWriter) write(ctx context.Context, id int64, d *search.Doc) error {
	parts, err := json.Marshal(d.Parts)
	if err != nil {
		return fmt.Errorf("encode search parts: %w", err)
	}
	// A new id has no text to drop: the delete finds none.
	if _, err := w.drop.ExecContext(ctx, id); err != nil {
		return wrapError(err)
	}
	_, err = w.insert.ExecContext(ctx, id, d.Body(), parts)
	return wrapError(err)
}

// id returns a session's document id, a new one when it has none.
func (w *docWriter) id(ctx context.Context, k review.SessionKey) (int64, error) {
	var id int64
	err := w.upsert.QueryRowContext(ctx, k.WorkItemID, k.FileName).Scan(&id)
	return id, wrapError(err)
}

// indexSearch writes the search documents of the sessions a write
// transaction wrote, with their decisions' notes. The import calls it in
// its transaction, after the summaries' rows.
//
// Every document's id is found before the first document is written: a
// statement that may write several rows (the upsert of search_docs) opens
// a savepoint, at which FTS5 flushes the text it holds in memory to a new
// segment of its index. Interleaved, each document would be a segment of
// its own, merged again and again; written after the last upsert, a
// batch's documents are one.
func indexSearch(ctx context.Context, tx *sql.Tx, rows []*sessionRow) error {
	w, err := newDocWriter(ctx, tx)
	if err != nil {
		return err
	}
	defer w.close()
	ids := make([]int64, len(rows))
	for i, r := range rows {
		if r.doc == nil {
			continue
		}
		k := review.SessionKey{WorkItemID: r.sum.WorkItemID, FileName: r.sum.FileName}
		if err := w.addNotes(ctx, k, r.doc); err != nil {
			return fmt.Errorf("search index %s: %w", k, err)
		}
		if ids[i], err = w.id(ctx, k); err != nil {
			return fmt.Errorf("search index %s: %w", k, err)
		}
	}
	for i, r := range rows {
		if r.doc == nil {
			continue
		}
		if err := w.write(ctx, ids[i], r.doc); err != nil {
			return fmt.Errorf("search index %s/%s: %w", r.sum.WorkItemID, r.sum.FileName, err)
		}
		r.doc = nil
	}
	return nil
}

// indexNote adds a decision's note to its session's document, in the
// decision's transaction. A session not indexed yet gets its notes when
// it is (IndexMissing, or its next import).
func indexNote(ctx context.Context, tx *sql.Tx, d review.Decision) error {
	if d.Note == "" {
		return nil
	}
	k := d.Session
	var body string
	var parts []byte
	err := tx.QueryRowContext(ctx, `SELECT f.body, f.parts FROM search_docs d JOIN search_fts f ON f.rowid = d.id
		WHERE d.work_item_id = ? AND d.file_name = ?`, k.WorkItemID, k.FileName).Scan(&body, &parts)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("search index %s: %w", k, wrapError(err))
	}
	var ps []search.Part
	if err := json.Unmarshal(parts, &ps); err != nil {
		return fmt.Errorf("search index %s: decode parts: %w", k, err)
	}
	doc := search.LoadDoc(body, ps)
	doc.Add(search.InNote, d.Note, search.Location{TurnID: d.TurnID, CallID: d.ToolCallID})
	w, err := newDocWriter(ctx, tx)
	if err != nil {
		return err
	}
	defer w.close()
	id, err := w.id(ctx, k)
	if err == nil {
		err = w.write(ctx, id, doc)
	}
	if err != nil {
		return fmt.Errorf("search index %s: %w", k, err)
	}
	return nil
}

// purgeSearchIndex removes a purged session from the search index, inside
// the purge's transaction, so that the session leaves every table at once.
// (Its summary's delete would take it too: this does not depend on it.)
func purgeSearchIndex(ctx context.Context, tx *sql.Tx, k review.SessionKey) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM search_docs WHERE work_item_id = ? AND file_name = ?`, k.WorkItemID, k.FileName)
	return err
}

// resetSearchIndex empties the search index in a rebuild's transaction.
// A full-text table of its own content can only be emptied row by row,
// each row's words taken out of the index; dropping it and creating it
// again, from its own stored definition, is immediate.
func resetSearchIndex(ctx context.Context, tx *sql.Tx, pg bool) error {
	if pg {
		return pgResetSearchIndex(ctx, tx)
	}
	var create string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'search_fts'`).Scan(&create); err != nil {
		return fmt.Errorf("search index: %w", wrapError(err))
	}
	for _, q := range []string{
		`DROP TABLE search_fts`,
		create,
		`INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 1)`,
		`DELETE FROM search_docs`,
		`DELETE FROM meta WHERE key = '` + metaSearchBackfill + `'`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("search index: %w", wrapError(err))
		}
	}
	return nil
}

// metaSearchBackfill is set while sessions stored before the search index
// are not indexed yet (migration 0008).
const metaSearchBackfill = "search_backfill"
