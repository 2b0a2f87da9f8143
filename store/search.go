package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

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

// docWriter writes search documents in one transaction. On SQLite a new
// document's text is indexed by flush, many in one statement: FTS5
// writes what it holds to the file at every statement that may roll back
// on its own, so that indexing each document by its own statement wrote
// each as a segment of its own, and merged them again and again (half
// the time of writing the documents). A replaced document is indexed
// again at once, by its triggers (migration 0017).
type docWriter struct {
	d                            dialect
	tx                           *sql.Tx
	notes, upsert, text, replace *sql.Stmt
	// upsertValues is upsert of a prepared document, whose row's
	// copies of its summary's columns the reader gave (SQLite).
	upsertValues *sql.Stmt
	// added are the new documents that flush indexes, by id.
	added map[int64]searchText
	// raw and packed are the room of a document's uncompressed and
	// compressed forms.
	raw, packed []byte
}

// indexRows is how many documents one statement of flush indexes.
const indexRows = 128

// docStatements are the statements of a document's writer, each "" where
// the engine has none: the upsert of a document's row (from its summary,
// or from the values an import's reader gave), the insert of its text,
// and the replacement of a text stored before.
type docStatements struct{ upsert, upsertValues, text, replace string }

// docStatements are SQLite's. The summary's values are read from its
// covering index: its row holds its lists, and the columns past them are
// read through its overflow pages (half the cost of writing a document).
func (sqliteDialect) docStatements() docStatements {
	return docStatements{
		upsert: `INSERT INTO search_docs (work_item_id, file_name, ` + docFilterCols + `)
		SELECT work_item_id, file_name, ` + docFilterCols + ` FROM agent_stream_summaries INDEXED BY summaries_search
		WHERE work_item_id = ? AND file_name = ?
		ON CONFLICT (work_item_id, file_name) DO UPDATE SET ` + docFilterSet + ` RETURNING id, agent_kind, flags, outcome`,
		upsertValues: `INSERT INTO search_docs (work_item_id, file_name, ` + docFilterCols + `) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (work_item_id, file_name) DO UPDATE SET ` + docFilterSet + ` RETURNING id`,
		text:    `INSERT INTO search_text (id, doc) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`,
		replace: `UPDATE search_text SET doc = ? WHERE id = ?`,
	}
}

func newDocWriter(ctx context.Context, tx *sql.Tx, d dialect) (*docWriter, error) {
	w := &docWriter{d: d, tx: tx, added: map[int64]searchText{}}
	ds := d.docStatements()
	upsert, upsertValues, text, replace := ds.upsert, ds.upsertValues, ds.text, ds.replace
	stmts := []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.notes, `SELECT note, turn_id, tool_call_id FROM review_decisions
			WHERE work_item_id = ? AND file_name = ? AND note != '' ORDER BY id`},
		{&w.upsert, upsert},
		{&w.upsertValues, upsertValues},
		{&w.text, text},
		// search_text's triggers take the old text's words out and index
		// the new one's.
		{&w.replace, replace},
	}
	for _, p := range stmts {
		if p.sql == "" {
			continue
		}
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
	for _, st := range []*sql.Stmt{w.notes, w.upsert, w.upsertValues, w.text, w.replace} {
		if st != nil {
			st.Close()
		}
	}
}

// addNotes adds the notes of a session's decisions to its document and
// returns how many it added.
func (w *docWriter) addNotes(ctx context.Context, k review.SessionKey, d *search.Doc) (int, error) {
	rows, err := w.notes.QueryContext(ctx, k.WorkItemID, k.FileName)
	if err != nil {
		return 0, wrapError(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var note string
		var at search.Location
		if err := rows.Scan(&note, &at.TurnID, &at.CallID); err != nil {
			return n, err
		}
		d.Add(search.InNote, note, at)
		n++
	}
	return n, wrapError(rows.Err())
}

// preparedDoc is a document made ready to store by an import's reader,
// so that the writer, which every reader waits for, does not: its body,
// the tags of the summary the reader encoded, and its stored form
// (SQLite) or its parts' JSON (PostgreSQL). It stands for the document
// only while no note is added to it and its summary is stored with those
// tags.
type preparedDoc struct {
	text   searchText
	packed []byte
	// cols are the values of the summary's columns its document's row
	// copies (docFilterCols) as the import writes them, from which the
	// tags were made (SQLite; nil elsewhere).
	cols []any
}

// prepareDoc prepares a document with the tags of its summary: in its
// stored form when pack is set (the parts' JSON made in scratch room,
// kept only packed), else with its parts' JSON.
func prepareDoc(d *search.Doc, tags string, pack bool) (*preparedDoc, error) {
	p := &preparedDoc{text: searchText{body: d.Body(), tags: tags}}
	if !pack {
		parts, err := json.Marshal(d.Parts)
		if err != nil {
			return nil, fmt.Errorf("encode search parts: %w", err)
		}
		p.text.parts = parts
		return p, nil
	}
	sc := scratch.Get().(*packScratch)
	defer scratch.Put(sc)
	sc.json.Reset()
	if err := json.NewEncoder(&sc.json).Encode(d.Parts); err != nil {
		return nil, fmt.Errorf("encode search parts: %w", err)
	}
	t := p.text
	t.parts = bytes.TrimSuffix(sc.json.Bytes(), []byte("\n"))
	p.packed, sc.raw, sc.out = packSearchTextInto(t, sc.raw, sc.out)
	return p, nil
}

// weight is the prepared document's size in memory.
func (p *preparedDoc) weight() int {
	if p == nil {
		return 0
	}
	return len(p.text.body) + len(p.text.parts) + len(p.packed)
}

// write writes a session's document in place of the one it had; pre is
// the document prepared, or nil.
func (w *docWriter) write(ctx context.Context, k review.SessionKey, d *search.Doc, pre *preparedDoc) error {
	return w.d.writeDoc(ctx, w, k, d, pre)
}

// writeDoc is docWriter.write on SQLite.
func (sqliteDialect) writeDoc(ctx context.Context, w *docWriter, k review.SessionKey, d *search.Doc, pre *preparedDoc) error {
	var id int64
	// The tags are of the summary's values as stored, which the row of
	// the document copies: those the import's reader gave with the
	// document, which the import's writer stored, else read back.
	var tags string
	if pre != nil && pre.cols != nil {
		if err := w.upsertValues.QueryRowContext(ctx, append([]any{k.WorkItemID, k.FileName}, pre.cols...)...).Scan(&id); err != nil {
			return wrapError(err)
		}
		tags = pre.text.tags
	} else {
		var agent, flags, outcome string
		if err := w.upsert.QueryRowContext(ctx, k.WorkItemID, k.FileName).Scan(&id, &agent, &flags, &outcome); err != nil {
			return wrapError(err)
		}
		tags = searchTags(agent, flags, outcome)
	}
	var doc []byte
	var t searchText
	if pre != nil && pre.packed != nil && pre.text.tags == tags {
		doc, t = pre.packed, pre.text
	} else {
		made, err := prepareDoc(d, tags, false)
		if err != nil {
			return err
		}
		t = made.text
		doc, w.raw, w.packed = packSearchTextInto(t, w.raw, w.packed)
	}
	res, err := w.text.ExecContext(ctx, id, doc)
	if err != nil {
		return wrapError(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		t.parts = nil
		w.added[id] = t
		return wrapError(err)
	}
	// A document that is replaced is in the index: one added in this
	// transaction is put there first.
	if _, ok := w.added[id]; ok {
		if err := w.flush(ctx); err != nil {
			return err
		}
	}
	_, err = w.replace.ExecContext(ctx, doc, id)
	return wrapError(err)
}

// flush indexes the documents added since the last flush.
func (w *docWriter) flush(ctx context.Context) error {
	if len(w.added) == 0 {
		return nil
	}
	args := make([]any, 0, 3*min(len(w.added), indexRows))
	run := func() error {
		q := `INSERT INTO search_fts (rowid, body, tags) VALUES ` + strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", len(args)/3), ", ")
		_, err := w.tx.ExecContext(ctx, q, args...)
		args = args[:0]
		return wrapError(err)
	}
	// In the order of their ids: FTS5 writes what it holds to the file
	// before a row whose id is below the last one's.
	for _, id := range slices.Sorted(maps.Keys(w.added)) {
		t := w.added[id]
		args = append(args, id, t.body, t.tags)
		if len(args) == 3*indexRows {
			if err := run(); err != nil {
				return fmt.Errorf("search index: %w", err)
			}
		}
	}
	if len(args) > 0 {
		if err := run(); err != nil {
			return fmt.Errorf("search index: %w", err)
		}
	}
	clear(w.added)
	return nil
}

// indexSearch writes the search documents of the sessions a write
// transaction wrote, with their decisions' notes. The import calls it in
// its transaction, after the summaries' rows.
func indexSearch(ctx context.Context, tx *sql.Tx, rows []*sessionRow, dl dialect) error {
	w, err := newDocWriter(ctx, tx, dl)
	if err != nil {
		return err
	}
	defer w.close()
	noted, err := notedSessions(ctx, tx, rows)
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	for _, r := range rows {
		if r.doc == nil {
			continue
		}
		k := review.SessionKey{WorkItemID: r.sum.WorkItemID, FileName: r.sum.FileName}
		notes := 0
		if noted[k] {
			if notes, err = w.addNotes(ctx, k, r.doc); err != nil {
				return fmt.Errorf("search index %s: %w", k, err)
			}
		}
		pre := r.preDoc
		if notes > 0 {
			pre = nil
		}
		if err := w.write(ctx, k, r.doc, pre); err != nil {
			return fmt.Errorf("search index %s: %w", k, err)
		}
		r.doc, r.preDoc = nil, nil
	}
	return w.flush(ctx)
}

// notedSessions returns which sessions of rows have decisions with a
// note, in one read: most have none (every session of a first import),
// and their notes are not looked for one by one.
func notedSessions(ctx context.Context, tx *sql.Tx, rows []*sessionRow) (map[review.SessionKey]bool, error) {
	var wis []any
	for _, wi := range workItemsOf(rows) {
		wis = append(wis, wi)
	}
	noted := map[review.SessionKey]bool{}
	if len(wis) == 0 {
		return noted, nil
	}
	q, err := tx.QueryContext(ctx, `SELECT DISTINCT work_item_id, file_name FROM review_decisions
		WHERE note != '' AND work_item_id IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(wis)), ", ")+`)`, wis...)
	if err != nil {
		return nil, wrapError(err)
	}
	defer q.Close()
	for q.Next() {
		var k review.SessionKey
		if err := q.Scan(&k.WorkItemID, &k.FileName); err != nil {
			return nil, wrapError(err)
		}
		noted[k] = true
	}
	return noted, wrapError(q.Err())
}

// indexNote adds a decision's note to its session's document, in the
// decision's transaction. A session not indexed yet gets its notes when
// it is (IndexMissing, or its next import).
func indexNote(ctx context.Context, tx *sql.Tx, d review.Decision, dl dialect) error {
	if d.Note == "" {
		return nil
	}
	k := d.Session
	body, ps, err := dl.readSearchText(ctx, tx, k)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("search index %s: %w", k, wrapError(err))
	}
	sd := search.LoadDoc(body, ps)
	sd.Add(search.InNote, d.Note, search.Location{TurnID: d.TurnID, CallID: d.ToolCallID})
	w, err := newDocWriter(ctx, tx, dl)
	if err != nil {
		return err
	}
	defer w.close()
	if err := w.write(ctx, k, sd, nil); err != nil {
		return fmt.Errorf("search index %s: %w", k, err)
	}
	return w.flush(ctx)
}

// purgeSearchIndex removes a purged session from the search index, inside
// the purge's transaction, so that the session leaves every table at once.
// (Its summary's delete would take it too: this does not depend on it.)
func purgeSearchIndex(ctx context.Context, tx *sql.Tx, k review.SessionKey) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM search_docs WHERE work_item_id = ? AND file_name = ?`, k.WorkItemID, k.FileName)
	return err
}

// resetSearchIndex empties the search index in a rebuild's transaction.
// Its documents can only be deleted row by row, each one's words taken
// out of the index by a trigger; dropping the index and the documents
// and creating them again, from their own stored definitions (the
// documents' triggers with them), is immediate.
func (sqliteDialect) resetSearchIndex(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT sql FROM sqlite_master WHERE (type = 'table' AND name IN ('search_fts', 'search_text'))
		OR (type = 'trigger' AND tbl_name = 'search_text') ORDER BY type = 'trigger', name`)
	if err != nil {
		return fmt.Errorf("search index: %w", wrapError(err))
	}
	var create []string
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			rows.Close()
			return fmt.Errorf("search index: %w", wrapError(err))
		}
		create = append(create, q)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("search index: %w", wrapError(err))
	}
	qs := append([]string{`DROP TABLE search_text`, `DROP TABLE search_fts`}, create...)
	for _, q := range append(qs,
		`INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 1)`,
		`DELETE FROM search_docs`,
		`DELETE FROM meta WHERE key = '`+metaSearchBackfill+`'`,
	) {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("search index: %w", wrapError(err))
		}
	}
	return nil
}

// rowQuerier reads one row: a database or a transaction.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// readSearchText reads a session's stored document, its body and parts;
// sql.ErrNoRows, unwrapped, when it has none. On SQLite the document is
// stored packed in search_text (the index keeps no text).
func (sqliteDialect) readSearchText(ctx context.Context, q rowQuerier, k review.SessionKey) (string, []search.Part, error) {
	var doc []byte
	err := q.QueryRowContext(ctx, `SELECT t.doc FROM search_docs d JOIN search_text t ON t.id = d.id
		WHERE d.work_item_id = ? AND d.file_name = ?`, k.WorkItemID, k.FileName).Scan(&doc)
	if err != nil {
		return "", nil, err
	}
	return loadSearchText(doc)
}

// loadSearchText reads a stored document's body and parts.
func loadSearchText(doc []byte) (string, []search.Part, error) {
	t, err := unpackSearchText(doc)
	if err != nil {
		return "", nil, err
	}
	var ps []search.Part
	if err := json.Unmarshal(t.parts, &ps); err != nil {
		return "", nil, fmt.Errorf("%w: its parts: %v", errSearchText, err)
	}
	return t.body, ps, nil
}

// tidyMergePages bounds the work of one tidySearchIndex, in pages.
const tidyMergePages = 256

// tidySearchIndex merges the full-text index's segments a little after a
// sweep: the segments whose every document was deleted (their words are
// taken out at once, but their pages stay) are dropped, and their pages
// given back with the rest. The count is negative so that a level of
// fewer segments than FTS5 waits for (usermerge) is merged too: a store
// indexes many documents per segment, and has few.
func (s *Store) tidySearchIndex(ctx context.Context) error {
	_, err := s.sqliteExec(ctx, s.w, `INSERT INTO search_fts (search_fts, rank) VALUES ('merge', -`+strconv.Itoa(tidyMergePages)+`)`)
	if err != nil {
		return fmt.Errorf("search index: %w", wrapError(err))
	}
	return nil
}

// metaSearchBackfill is set while sessions stored before the search index
// are not indexed yet (migration 0008).
const metaSearchBackfill = "search_backfill"
