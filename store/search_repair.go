package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// metaSearchRepair is set (migrations 0018, PostgreSQL 0009) while stored
// search documents may name calls their sessions do not have.
const metaSearchRepair = "search_repair"

// repairSearchDocs checks every stored search document once, while the
// mark is set: one that places a part at a call its session does not
// have is built again from the stored summary, with the prompts and
// harness errors it held (which the summary does not) and the notes of
// its decisions. It runs in batches, each its own transaction, and is
// safe to stop. It returns how many documents it built again.
func (s *Store) repairSearchDocs(ctx context.Context) (int, error) {
	var mark int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM meta WHERE key = ?`, metaSearchRepair).Scan(&mark); err != nil {
		return 0, fmt.Errorf("search repair: %w", wrapError(err))
	}
	if mark == 0 {
		return 0, nil
	}
	done := 0
	var after int64
	for {
		keys, last, err := s.docsAfter(ctx, after)
		if err != nil || len(keys) == 0 {
			if err != nil {
				return done, err
			}
			break
		}
		after = last
		var bad []review.SessionKey
		var docs []*search.Doc
		for _, k := range keys {
			d, err := s.repairedDoc(ctx, k)
			if err != nil {
				return done, err
			}
			if d != nil {
				bad, docs = append(bad, k), append(docs, d)
			}
		}
		if len(bad) > 0 {
			if err := s.writeDocs(ctx, bad, docs); err != nil {
				return done, err
			}
			done += len(bad)
		}
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, metaSearchRepair); err != nil {
		return done, fmt.Errorf("search repair: %w", wrapError(err))
	}
	return done, nil
}

// docsAfter returns the sessions of the next search documents after id
// `after`, and the last one's id.
func (s *Store) docsAfter(ctx context.Context, after int64) ([]review.SessionKey, int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, work_item_id, file_name FROM search_docs WHERE id > ? ORDER BY id LIMIT ?`,
		after, backfillBatch)
	if err != nil {
		return nil, 0, fmt.Errorf("search repair: %w", wrapError(err))
	}
	return scanKeysAfter(rows)
}

// repairedDoc returns a session's search document built again, or nil
// when the stored one places every part at a call the session has (or
// the session is gone). A stored document that cannot be read is left
// as it is (its index triggers cannot read it either, to replace it): it
// must not stop the repair, nor every search after it.
func (s *Store) repairedDoc(ctx context.Context, k review.SessionKey) (*search.Doc, error) {
	body, parts, err := s.d.readSearchText(ctx, s.r, k)
	switch {
	case errors.Is(err, sql.ErrNoRows), errors.Is(err, errSearchText):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("search repair %s: %w", k, wrapError(err))
	}
	names := false
	for _, p := range parts {
		for _, at := range p.At {
			names = names || at.CallID != ""
		}
	}
	if !names {
		return nil, nil
	}
	sess, err := s.GetSession(ctx, k)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("search repair: %w", err)
	}
	calls := make(map[string]bool, len(sess.Summary.ToolCalls))
	for _, c := range sess.Summary.ToolCalls {
		calls[c.ID] = true
	}
	for _, p := range parts {
		for _, at := range p.At {
			if at.CallID != "" && !calls[at.CallID] {
				return search.NewDoc(&sess.Summary, search.LoadDoc(body, parts).Pieces()), nil
			}
		}
	}
	return nil, nil
}
