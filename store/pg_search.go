package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/agentsift/sift/core/search"
)

// pgResetSearchIndex empties the search index in a rebuild's transaction
// on PostgreSQL, where a table's rows are simply deleted.
func pgResetSearchIndex(ctx context.Context, tx *sql.Tx) error {
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

// pgMatchesSQL is Matches's read on PostgreSQL: the document's text,
// which markMatches marks.
const pgMatchesSQL = `SELECT search_fts.body, search_fts.parts
	FROM search_docs d JOIN search_fts ON search_fts.rowid = d.id
	WHERE d.work_item_id = ? AND d.file_name = ? AND search_fts MATCH ?`

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
