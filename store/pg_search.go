package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// resetSearchIndex empties the search index in a rebuild's transaction
// on PostgreSQL, where a table's rows are simply deleted.
func (pgDialect) resetSearchIndex(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{
		`DELETE FROM search_fts`,
		`DELETE FROM search_docs`,
		`DELETE FROM meta WHERE key = '` + metaSearchBackfill + `'`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("search index: %w", wrapError(err))
		}
	}
	return nil
}

// matchedText is the session's document when it matches the search's
// words, on PostgreSQL.
func (pgDialect) matchedText(ctx context.Context, s *Store, k review.SessionKey, sq *search.Query) (string, []search.Part, error) {
	var body string
	var parts []byte
	var ps []search.Part
	err := s.r.QueryRowContext(ctx, pgMatchesSQL, k.WorkItemID, k.FileName, ftsJoin(sq.Positive(), "OR")).Scan(&body, &parts)
	if err == nil {
		err = json.Unmarshal(parts, &ps)
	}
	return body, ps, err
}

// pgMatchesSQL is Matches's read on PostgreSQL: the document's text,
// which markMatches marks.
const pgMatchesSQL = `SELECT search_fts.body, search_fts.parts
	FROM search_docs d JOIN search_fts ON search_fts.rowid = d.id
	WHERE d.work_item_id = ? AND d.file_name = ? AND search_fts.words @@ sift_fts_query(?)`

// markMatches marks the places of a document's text that a search's words
// and phrases match, each between \x01 and \x02, line by line, as
// SQLite's highlight() would: on both backends the index keeps no text to
// highlight (SQLite's is contentless, migration 0017).
func markMatches(body string, sq *search.Query) string {
	var b strings.Builder
	b.Grow(len(body) + 64)
	for i, line := range strings.Split(body, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		at := 0
		for _, sp := range sq.Highlight(line) {
			b.WriteString(line[at:sp[0]])
			b.WriteByte(1)
			b.WriteString(line[sp[0]:sp[1]])
			b.WriteByte(2)
			at = sp[1]
		}
		b.WriteString(line[at:])
	}
	return b.String()
}

// docStatements are PostgreSQL's: its search_docs has no copies of the
// summary's columns, and its search_fts holds the text and its words.
func (pgDialect) docStatements() docStatements {
	return docStatements{
		upsert: `INSERT INTO search_docs (work_item_id, file_name) VALUES (?, ?)
			ON CONFLICT (work_item_id, file_name) DO UPDATE SET work_item_id = excluded.work_item_id RETURNING id`,
		text:    `INSERT INTO search_fts (rowid, body, parts) VALUES (?, ?, ?)`,
		replace: `DELETE FROM search_fts WHERE rowid = ?`,
	}
}

// writeDoc is docWriter.write on PostgreSQL: the document's text with its
// parts' JSON, in place of the one it had.
func (pgDialect) writeDoc(ctx context.Context, w *docWriter, k review.SessionKey, d *search.Doc, pre *preparedDoc) error {
	var id int64
	if pre == nil || pre.text.parts == nil {
		var err error
		if pre, err = prepareDoc(d, "", false); err != nil {
			return err
		}
	}
	if err := w.upsert.QueryRowContext(ctx, k.WorkItemID, k.FileName).Scan(&id); err != nil {
		return wrapError(err)
	}
	// A new id has no text to drop: the delete finds none.
	if _, err := w.replace.ExecContext(ctx, id); err != nil {
		return wrapError(err)
	}
	_, err := w.text.ExecContext(ctx, id, pre.text.body, pre.text.parts)
	return wrapError(err)
}

// readSearchText reads a session's stored document, its body and parts;
// sql.ErrNoRows, unwrapped, when it has none.
func (pgDialect) readSearchText(ctx context.Context, q rowQuerier, k review.SessionKey) (string, []search.Part, error) {
	var body string
	var parts []byte
	err := q.QueryRowContext(ctx, `SELECT f.body, f.parts FROM search_docs d JOIN search_fts f ON f.rowid = d.id
		WHERE d.work_item_id = ? AND d.file_name = ?`, k.WorkItemID, k.FileName).Scan(&body, &parts)
	if err != nil {
		return "", nil, err
	}
	var ps []search.Part
	if err := json.Unmarshal(parts, &ps); err != nil {
		return "", nil, fmt.Errorf("%w: its parts: %v", errSearchText, err)
	}
	return body, ps, nil
}

// countMatches is readSearch's count on PostgreSQL: the matches are
// counted, and no set is kept.
func (pgDialect) countMatches(ctx context.Context, s *Store, r *searchRead, sq *search.Query) error {
	if r.matchExpr(sq); r.expr == "" {
		return nil
	}
	query, args := r.matchCountSQL("COUNT(*)")
	return s.r.QueryRowContext(ctx, query, args...).Scan(&r.n)
}
