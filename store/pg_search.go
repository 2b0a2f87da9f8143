package store

import (
	"context"
	"database/sql"
	"fmt"
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
