package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/jackc/pgx/v5"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// writeRows is Store.writeRows on PostgreSQL: the same rows, statements and
// order, with a batch's per-session statements sent in pipelines
// (pgPipe) rather than one round trip each. A batch that holds a session
// twice is written in runs that hold it once, one after the other, as
// the loop would.
func (pgDialect) writeRows(ctx context.Context, s *Store, rows []*sessionRow, cf costFiles) error {
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return fmt.Errorf("write batch: %w", wrapError(err))
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write batch: %w", wrapError(err))
	}
	defer tx.Rollback()
	if err := s.lockWrites(ctx, tx); err != nil {
		return fmt.Errorf("write batch: %w", err)
	}
	done := ctx
	ctx = context.WithoutCancel(ctx)
	now := s.now().UnixMilli()
	if err := pgWriteWorkItems(ctx, tx, rows, now, cf); err != nil {
		return fmt.Errorf("write batch: %w", err)
	}
	if err := pgLoadCostFiles(ctx, tx, rows, cf); err != nil {
		return fmt.Errorf("write batch: %w", err)
	}
	for _, run := range distinctRuns(rows) {
		if err := done.Err(); err != nil {
			return fmt.Errorf("write batch: %w", err)
		}
		if err := s.pgWriteRun(ctx, conn, run, now, cf); err != nil {
			return err
		}
	}
	if err := s.indexSessions(ctx, tx, rows); err != nil {
		return err
	}
	if err := pgIndexSearch(ctx, conn, tx, rows); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write batch: %w", wrapError(err))
	}
	return nil
}

// distinctRuns cuts rows into runs in which no session comes twice.
func distinctRuns(rows []*sessionRow) [][]*sessionRow {
	var runs [][]*sessionRow
	seen := map[review.SessionKey]bool{}
	start := 0
	for i, r := range rows {
		k := review.SessionKey{WorkItemID: r.sum.WorkItemID, FileName: r.sum.FileName}
		if seen[k] {
			runs = append(runs, rows[start:i])
			start = i
			clear(seen)
		}
		seen[k] = true
	}
	return append(runs, rows[start:])
}

// pgWorkItemsSQL inserts a batch's work items, or sets the existing
// ones' updated_at, and says which it inserted (a row a statement
// inserts has no xmax).
const pgWorkItemsSQL = `INSERT INTO work_items (id, state, created_at, updated_at)
	SELECT w, 'terminal', ?2::bigint, ?2::bigint FROM unnest(?1::text[]) AS w
	ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at
	RETURNING id, xmax = 0`

// pgWriteWorkItems is writeWorkItem for a whole batch, in one statement.
func pgWriteWorkItems(ctx context.Context, tx *sql.Tx, rows []*sessionRow, now int64, cf costFiles) error {
	res, err := tx.QueryContext(ctx, pgWorkItemsSQL, workItemsOf(rows), now)
	if err != nil {
		return fmt.Errorf("work items: %w", wrapError(err))
	}
	defer res.Close()
	for res.Next() {
		var wi string
		var inserted bool
		if err := res.Scan(&wi, &inserted); err != nil {
			return fmt.Errorf("work items: %w", wrapError(err))
		}
		// A new work item has no cost row.
		if inserted && cf != nil {
			cf[wi] = map[string]bool{}
		}
	}
	return wrapError(res.Err())
}

// pgLoadCostFiles loads, in one query, what costFiles.has would ask of
// each work item of the batch's rows without an invocation.
func pgLoadCostFiles(ctx context.Context, tx *sql.Tx, rows []*sessionRow, cf costFiles) error {
	if cf == nil {
		return nil
	}
	var wis []string
	for _, r := range rows {
		if _, ok := cf[r.sum.WorkItemID]; r.noRun && !ok {
			cf[r.sum.WorkItemID] = map[string]bool{}
			wis = append(wis, r.sum.WorkItemID)
		}
	}
	if len(wis) == 0 {
		return nil
	}
	res, err := tx.QueryContext(ctx, `SELECT DISTINCT work_item_id, COALESCE(file_name, '') FROM work_item_costs
		WHERE work_item_id = ANY(?::text[])`, wis)
	if err != nil {
		return fmt.Errorf("cost rows: %w", wrapError(err))
	}
	defer res.Close()
	for res.Next() {
		var wi, f string
		if err := res.Scan(&wi, &f); err != nil {
			return fmt.Errorf("cost rows: %w", wrapError(err))
		}
		cf[wi][f] = true
	}
	return wrapError(res.Err())
}

// pgWriteRun writes a run of distinct sessions: their summaries, review
// events and files, and their cost rows' finds, in one pipeline; then
// the cost rows' updates and inserts in another. A cost row two sessions
// of the run found is the first's (its update names its file): the
// sessions from the second on are then reconciled one at a time, each
// finding what the ones before it left.
func (s *Store) pgWriteRun(ctx context.Context, conn *sql.Conn, rows []*sessionRow, now int64, cf costFiles) error {
	found := make([]int64, len(rows))
	find := make([]bool, len(rows))
	for i, r := range rows {
		find[i] = true
		if cf != nil && r.noRun {
			files := cf[r.sum.WorkItemID]
			find[i] = files[r.sum.FileName] || files[""]
		}
	}
	summarySQL := upsertSummarySQL()
	err := pgRun(ctx, conn, func(p *pgPipe) error {
		for i, r := range rows {
			sum, what := r.sum, "write "+r.file.Path
			p.exec(what, summarySQL, append(r.args(now), s.host)...)
			if r.noEvents {
				p.exec(what, `DELETE FROM review_events WHERE work_item_id = ? AND file_name = ?`, sum.WorkItemID, sum.FileName)
			} else {
				p.exec(what, eventsUpsertSQL, sum.WorkItemID, sum.FileName, r.events, r.nEvents)
			}
			p.exec(what, fileUpsertSQL, r.file.Path, sum.WorkItemID, sum.FileName, sum.Phase, nullIntp(sum.Iteration),
				sum.AgentKind, r.file.Size, r.file.MTime, now)
			if find[i] {
				p.query("reconcile cost of "+r.file.Path, costFindSQL, func(res pgx.Rows) error {
					if res.Next() {
						return res.Scan(&found[i])
					}
					return nil
				}, sum.WorkItemID, sum.Phase, ingest.CanonicalPhase(sum.Phase), nullIntp(sum.Iteration), sum.AgentKind, sum.FileName)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// The first session that found a row another one of the run found
	// before it: from it on, one at a time.
	first := len(rows)
	claimed := map[int64]bool{}
	for i, id := range found {
		if id == 0 {
			continue
		}
		if claimed[id] {
			first = i
			break
		}
		claimed[id] = true
	}
	err = pgRun(ctx, conn, func(p *pgPipe) error {
		for i, r := range rows[:first] {
			queueCost(p, r, found[i])
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := first; i < len(rows); i++ {
		var id int64
		r, sum := rows[i], rows[i].sum
		if find[i] {
			err := conn.QueryRowContext(ctx, costFindSQL, sum.WorkItemID, sum.Phase, ingest.CanonicalPhase(sum.Phase),
				nullIntp(sum.Iteration), sum.AgentKind, sum.FileName).Scan(&id)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("reconcile cost of %s: %w", r.file.Path, wrapError(err))
			}
		}
		if err := pgRun(ctx, conn, func(p *pgPipe) error { queueCost(p, r, id); return nil }); err != nil {
			return err
		}
	}
	for _, r := range rows {
		if cf != nil {
			if files := cf[r.sum.WorkItemID]; files != nil {
				files[r.sum.FileName] = true
			}
		}
	}
	return nil
}

// queueCost queues reconcileCost's write: the update of the cost row id,
// or, with none, the insert of a stream-sourced one.
func queueCost(p *pgPipe, r *sessionRow, id int64) {
	sum, what := r.sum, "reconcile cost of "+r.file.Path
	if id == 0 {
		p.exec(what, costInsertSQL(pgDialect{}), sum.WorkItemID, sum.Phase, nullIntp(sum.Iteration), sum.AgentKind,
			sum.FileName, msPtr(sum.StartedAt), msPtr(sum.EndedAt), nullInt(sum.InputTokens), nullInt(sum.OutputTokens),
			nullInt(sum.CachedInputTokens), nullFloat(sum.EstimatedUSD), string(sum.CostSource), r.file.Path)
		return
	}
	p.exec(what, costUpdateSQL(pgDialect{}), nullInt(sum.InputTokens), nullInt(sum.OutputTokens),
		nullInt(sum.CachedInputTokens), nullFloat(sum.EstimatedUSD), string(sum.CostSource), sum.FileName,
		msPtr(sum.StartedAt), msPtr(sum.EndedAt), id)
}

// pgSearchDocSQL writes a session's search document in place of the one
// it had, in one statement: its id (search_docs), then its text and its
// words (pgWords; NULL lets the server's trigger compute them).
const pgSearchDocSQL = `WITH d AS (INSERT INTO search_docs (work_item_id, file_name) VALUES (?1, ?2)
	ON CONFLICT (work_item_id, file_name) DO UPDATE SET work_item_id = excluded.work_item_id RETURNING id)
	INSERT INTO search_fts (rowid, body, parts, words) SELECT id, ?3, ?4, ?5::tsvector FROM d
	ON CONFLICT (rowid) DO UPDATE SET body = excluded.body, parts = excluded.parts, words = excluded.words`

// pgNotesSQL reads the notes of a batch's sessions' decisions, in the
// order docWriter.addNotes adds them.
const pgNotesSQL = `SELECT d.work_item_id, d.file_name, d.note, d.turn_id, d.tool_call_id FROM review_decisions d
	JOIN unnest(?::text[], ?::text[]) AS k(w, f) ON d.work_item_id = k.w AND d.file_name = k.f
	WHERE d.note != '' ORDER BY d.id`

// pgIndexSearch is indexSearch and writeUsage on PostgreSQL: the notes
// of all the batch's sessions in one query, then every document and
// usage row in one pipeline.
func pgIndexSearch(ctx context.Context, conn *sql.Conn, tx *sql.Tx, rows []*sessionRow) error {
	docs := map[review.SessionKey]*search.Doc{}
	var wis, files []string
	for _, r := range rows {
		if r.doc != nil {
			k := review.SessionKey{WorkItemID: r.sum.WorkItemID, FileName: r.sum.FileName}
			docs[k] = r.doc
			wis, files = append(wis, k.WorkItemID), append(files, k.FileName)
		}
	}
	if len(wis) > 0 {
		if err := pgAddNotes(ctx, tx, wis, files, docs); err != nil {
			return err
		}
	}
	return pgRun(ctx, conn, func(p *pgPipe) error {
		for _, r := range rows {
			if r.doc == nil {
				continue
			}
			parts, err := json.Marshal(r.doc.Parts)
			if err != nil {
				return fmt.Errorf("encode search parts: %w", err)
			}
			k := review.SessionKey{WorkItemID: r.sum.WorkItemID, FileName: r.sum.FileName}
			body := r.doc.Body()
			words, _ := pgWords(body)
			p.exec(fmt.Sprintf("search index %s", k), pgSearchDocSQL, k.WorkItemID, k.FileName, body, parts, words)
			r.doc = nil
		}
		for _, r := range rows {
			u := r.usage
			if u == nil {
				continue
			}
			var first sql.NullInt64
			if u.First != 0 {
				first = sql.NullInt64{Int64: u.First, Valid: true}
			}
			p.exec("write usage of "+r.file.Path, usageUpsertSQL, r.file.Path, r.sum.WorkItemID, r.sum.FileName,
				r.sum.AgentKind, emptyNull(u.SessionID), emptyNull(u.ParentCall), first, strings.Join(u.Models, "\n"),
				len(u.Entries), encodeEntries(u.Entries))
		}
		return nil
	})
}

// pgAddNotes adds the notes of the sessions' decisions to their
// documents.
func pgAddNotes(ctx context.Context, tx *sql.Tx, wis, files []string, docs map[review.SessionKey]*search.Doc) error {
	res, err := tx.QueryContext(ctx, pgNotesSQL, wis, files)
	if err != nil {
		return fmt.Errorf("search index: %w", wrapError(err))
	}
	defer res.Close()
	for res.Next() {
		var k review.SessionKey
		var note string
		var at search.Location
		if err := res.Scan(&k.WorkItemID, &k.FileName, &note, &at.TurnID, &at.CallID); err != nil {
			return fmt.Errorf("search index: %w", wrapError(err))
		}
		if d := docs[k]; d != nil {
			d.Add(search.InNote, note, at)
		}
	}
	return wrapError(res.Err())
}
