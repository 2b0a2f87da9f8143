package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/summary"
)

// sessionRow is a session as the store writes it: the summary's columns
// and its JSON parts, encoded by the import's reader that read it
// (importWriter.Encode).
type sessionRow struct {
	file    ingest.File
	sum     *summary.Summary
	brief   []byte
	calls   []byte
	stalls  []byte
	turns   []byte
	events  []byte
	nEvents int
	// noEvents is set when the session's review events were not built
	// (it is past their retention tier): none are written, and any an
	// earlier import wrote go.
	noEvents bool
	activity int64
	// usage is the usage of a history file (store/usage.go); nil for
	// other streams.
	usage *ingest.Usage
	// noRun is set when no recorded invocation (sift run) matches the
	// file: its cost row can then only be one a summary of it wrote.
	noRun bool
	// doc is the session's search document (search.go), and preDoc the
	// document as the import's reader prepared it, or nil.
	doc    *search.Doc
	preDoc *preparedDoc
	// toolNames is the session's tool_names (toolnames.go).
	toolNames string
}

// Weight implements ingest.Row: the row's size in memory, which bounds a
// batch.
func (r *sessionRow) Weight() int {
	return len(r.brief) + len(r.calls) + len(r.stalls) + len(r.turns) + len(r.events) + r.preDoc.weight()
}

// newSessionRow encodes a session and its review events for the store;
// nil events were not built.
// It takes the summary's lists: once they are encoded, the row's summary
// keeps only its figures (ToolCalls, Stalls and Turns are nil), so that a
// session's calls are not held twice while its batch waits for the
// writer. The review events are encoded one at a time.
func newSessionRow(sess *ingest.Session, evs list[summary.ReviewEvent]) (*sessionRow, error) {
	sum := sess.Summary
	r := &sessionRow{file: sess.File, sum: sum, activity: sess.Activity(), usage: sess.Usage, noRun: sess.NoRun,
		noEvents: evs == nil, doc: searchDoc(sum, sess.Search)}
	if evs == nil {
		evs = sliceList[summary.ReviewEvent](nil)
	}
	r.nEvents = evs.Len()
	var err error
	enc := func(v any, empty string) []byte {
		if err != nil {
			return nil
		}
		var b []byte
		b, err = json.Marshal(v)
		if string(b) == "null" {
			b = []byte(empty)
		}
		return b
	}
	// The events first: they are made from the summarizer's records,
	// which are garbage once they are encoded (the caller keeps no
	// reference to evs), before the calls' JSON is made.
	r.events, err = encodePackedList(evs)
	evs, sess.Events = nil, nil
	if err == nil {
		r.turns, err = encodePackedList(sliceList[summary.Turn](sum.Turns))
	}
	if err == nil {
		r.calls, err = encodeList(sum.ToolCalls)
	}
	if err == nil {
		r.stalls, err = encodeList(sum.Stalls)
	}
	if err == nil {
		r.toolNames, err = toolNamesJSON(r.calls)
	}
	brief := *sum
	brief.ToolCalls, brief.Stalls, brief.Turns = nil, nil, nil
	r.brief = enc(&brief, "{}")
	if err != nil {
		return nil, fmt.Errorf("encode summary: %w", err)
	}
	sum.ToolCalls, sum.Stalls, sum.Turns = nil, nil, nil
	return r, nil
}

// summaryCols are the columns of agent_stream_summaries that an import
// writes, in the order of sessionRow.args and then the host that recorded
// the row (Store.host: retention judges a file only on its own host).
var summaryCols = []string{
	"work_item_id", "file_name", "phase", "iteration", "agent_kind",
	"total_duration_ms", "time_to_first_token_ms", "input_tokens", "output_tokens",
	"cached_input_tokens", "estimated_usd", "tool_calls_json", "stalls_json",
	"final_assistant_message", "summarised_at", "session_id", "model", "cost_source",
	"outcome", "started_at", "ended_at", "activity_at", "thinking_ms", "executing_ms",
	"total_tokens", "tool_call_count", "stall_count", "error_count", "approval_count",
	"flags", "flagged", "line_count", "byte_count", "path", "brief_json", "turns_json",
	"sort_started", "outcome_rank", "host_id",
}

// upsertSummarySQL inserts a summary or replaces every column of an
// existing one. It updates in place rather than INSERT OR REPLACE, which
// would delete the row and cascade to its review events. A row a running
// `sift run` wrote (live.go) is complete once rewritten: its live mark
// goes (WriteLive sets it again after its own write); an interrupted
// run's stays.
func upsertSummarySQL() string {
	// The row's own live is named by its table: PostgreSQL would find
	// excluded's as well.
	set := []string{"live = CASE agent_stream_summaries.live WHEN 'running' THEN '' ELSE agent_stream_summaries.live END",
		"live_tool = ''", "live_wait = ''"}
	for _, c := range summaryCols[2:] {
		set = append(set, c+" = excluded."+c)
	}
	return "INSERT INTO agent_stream_summaries (" + strings.Join(summaryCols, ", ") + ") VALUES (" +
		strings.TrimSuffix(strings.Repeat("?, ", len(summaryCols)), ", ") +
		") ON CONFLICT (work_item_id, file_name) DO UPDATE SET " + strings.Join(set, ", ")
}

func nullInt(p *int64) sql.NullInt64 {
	if p == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: *p, Valid: true}
}

func nullIntp(p *int) sql.NullInt64 {
	if p == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: int64(*p), Valid: true}
}

func nullFloat(p *float64) sql.NullFloat64 {
	if p == nil {
		return sql.NullFloat64{}
	}
	return sql.NullFloat64{Float64: *p, Valid: true}
}

func nullStr(p *string) sql.NullString {
	if p == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: *p, Valid: true}
}

func emptyNull(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// args returns the values of summaryCols.
func (r *sessionRow) args(now int64) []any {
	s := r.sum
	var total sql.NullInt64
	if s.InputTokens != nil || s.OutputTokens != nil {
		total.Valid = true
		for _, n := range []*int64{s.InputTokens, s.OutputTokens} {
			if n != nil {
				total.Int64 = event.AddCount(total.Int64, *n)
			}
		}
	}
	costSource := string(s.CostSource)
	if costSource == "" {
		costSource = string(summary.CostUnknown)
	}
	sortStarted := r.activity
	if s.StartedAt != nil && !s.StartedAt.IsZero() {
		sortStarted = s.StartedAt.UnixMilli()
	}
	outcome := r.outcome()
	return []any{
		s.WorkItemID, s.FileName, s.Phase, nullIntp(s.Iteration), s.AgentKind,
		nullInt(s.TotalDurationMs), nullInt(s.TimeToFirstTokenMs), nullInt(s.InputTokens), nullInt(s.OutputTokens),
		nullInt(s.CachedInputTokens), nullFloat(s.EstimatedUSD), r.calls, r.stalls,
		nullStr(s.FinalAssistantMessage), now, emptyNull(s.SessionID), emptyNull(s.Model), costSource,
		string(outcome), msPtr(s.StartedAt), msPtr(s.EndedAt), r.activity, nullInt(s.ThinkingMs), nullInt(s.ExecutingMs),
		total, s.ToolCallCount, s.StallCount, s.ErrorCount, s.ApprovalCount,
		r.flags(), s.Flagged, s.LineCount, s.ByteCount, r.file.Path, r.brief, r.turns,
		sortStarted, outcome.Rank(),
	}
}

// flags is the summary's flags column: their names separated by single
// spaces.
func (r *sessionRow) flags() string {
	names := make([]string, len(r.sum.Flags))
	for i, f := range r.sum.Flags {
		names[i] = string(f)
	}
	return strings.Join(names, " ")
}

// outcome is the summary's outcome column.
func (r *sessionRow) outcome() summary.Outcome {
	if r.sum.Outcome == "" {
		return summary.OutcomeUnknown
	}
	return r.sum.Outcome
}

// prepareDoc prepares the row's search document for the writer (pack: in
// its stored form too, as SQLite stores it), with the tags of the
// summary's columns as the row writes them.
func (r *sessionRow) prepareDoc(pack bool) error {
	if r.doc == nil {
		return nil
	}
	var err error
	flags, outcome := r.flags(), string(r.outcome())
	r.preDoc, err = prepareDoc(r.doc, searchTags(r.sum.AgentKind, flags, outcome), pack)
	if err == nil && pack {
		// docFilterCols, as args gives them to the summary's row.
		r.preDoc.cols = []any{r.sum.AgentKind, flags, outcome, r.activity, nullFloat(r.sum.EstimatedUSD)}
	}
	return err
}

// prepareRowDoc prepares a session row's document packed, as SQLite
// stores it.
func (sqliteDialect) prepareRowDoc(r *sessionRow) error { return r.prepareDoc(true) }

// prepareRowDoc prepares a session row's document with its parts' JSON, as
// PostgreSQL stores it.
func (pgDialect) prepareRowDoc(r *sessionRow) error { return r.prepareDoc(false) }

// batchStmts are the statements of one write batch.
type batchStmts struct {
	workItem, touchWorkItem, summary, events, noEvents, file, costFind, costUpdate, costInsert *sql.Stmt
}

// writeBatch writes summarized sessions in one transaction: work items,
// summaries, review events, the ingest index and cost reconciliation.
func (s *Store) writeBatch(ctx context.Context, rows []*sessionRow) error {
	return s.writeRows(ctx, rows, nil)
}

// costFiles knows, per work item, the files that have a cost row: an
// import's writer keeps it, so that the cost row of a file that has none
// and no invocation is inserted without looking for one.
type costFiles map[string]map[string]bool

// has reports whether a file of a work item may have a cost row, loading
// the work item's files on first use.
func (cf costFiles) has(ctx context.Context, tx *sql.Tx, wi, file string) (bool, error) {
	files, ok := cf[wi]
	if !ok {
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT COALESCE(file_name, '') FROM work_item_costs WHERE work_item_id = ?`, wi)
		if err != nil {
			return false, err
		}
		files = map[string]bool{}
		for rows.Next() {
			var f string
			if err := rows.Scan(&f); err != nil {
				rows.Close()
				return false, err
			}
			files[f] = true
		}
		err = rows.Err()
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return false, err
		}
		cf[wi] = files
	}
	return files[file] || files[""], nil
}

// writeWorkItem inserts a work item, or sets an existing one's updated_at.
// A new work item has no cost row (they reference it): cf, when kept,
// learns so without asking.
func writeWorkItem(ctx context.Context, st *batchStmts, wi string, now int64, cf costFiles) error {
	res, err := st.workItem.ExecContext(ctx, wi, now, now)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 1 {
		if cf != nil {
			cf[wi] = map[string]bool{}
		}
		return nil
	}
	_, err = st.touchWorkItem.ExecContext(ctx, now, wi)
	return err
}

// eventsUpsertSQL writes a session's review events.
const eventsUpsertSQL = `INSERT INTO review_events (work_item_id, file_name, events_json, event_count) VALUES (?, ?, ?, ?)
	ON CONFLICT (work_item_id, file_name) DO UPDATE SET events_json = excluded.events_json, event_count = excluded.event_count`

// fileUpsertSQL records a stream file in the ingest index.
const fileUpsertSQL = `INSERT INTO stream_files (path, work_item_id, file_name, phase, iteration, agent_kind, size, mtime, imported_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET work_item_id = excluded.work_item_id,
	file_name = excluded.file_name, phase = excluded.phase, iteration = excluded.iteration,
	agent_kind = excluded.agent_kind, size = excluded.size, mtime = excluded.mtime, imported_at = excluded.imported_at`

// writeRows is writeBatch with the writer's cost knowledge, when kept.
//
// Its statements run without ctx's cancellation, which the driver would
// watch with a goroutine of its own per statement: a cancelled ctx ends
// the transaction (database/sql rolls it back) and stops the writing
// before the next row.
// workItemsOf returns the work items of a batch's rows, each once, in the
// order the rows first name them.
func workItemsOf(rows []*sessionRow) []string {
	var wis []string
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		if wi := r.sum.WorkItemID; !seen[wi] {
			seen[wi] = true
			wis = append(wis, wi)
		}
	}
	return wis
}

func (s *Store) writeRows(ctx context.Context, rows []*sessionRow, cf costFiles) error {
	return s.d.writeRows(ctx, s, rows, cf)
}

// writeRows is Store.writeRows on SQLite: one transaction, the batch's
// statements prepared once.
func (sqliteDialect) writeRows(ctx context.Context, s *Store, rows []*sessionRow, cf costFiles) error {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("write batch: %w", wrapError(err))
	}
	defer tx.Rollback()
	if err := s.lockWrites(ctx, tx); err != nil {
		return fmt.Errorf("write batch: %w", err)
	}
	done := ctx
	ctx = context.WithoutCancel(ctx)
	var st batchStmts
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&st.workItem, `INSERT INTO work_items (id, state, created_at, updated_at) VALUES (?, 'terminal', ?, ?)
			ON CONFLICT (id) DO NOTHING`},
		{&st.touchWorkItem, `UPDATE work_items SET updated_at = ? WHERE id = ?`},
		{&st.summary, upsertSummarySQL()},
		{&st.events, eventsUpsertSQL},
		{&st.noEvents, `DELETE FROM review_events WHERE work_item_id = ? AND file_name = ?`},
		{&st.file, fileUpsertSQL},
		{&st.costFind, costFindSQL},
		{&st.costUpdate, costUpdateSQL(s.d)},
		{&st.costInsert, costInsertSQL(s.d)},
	} {
		if *p.dst, err = tx.PrepareContext(ctx, p.sql); err != nil {
			return fmt.Errorf("write batch: prepare: %w", wrapError(err))
		}
		defer (*p.dst).Close()
	}
	now := s.now().UnixMilli()
	// Each work item once per batch: a batch holds many sessions of few
	// work items, and every upsert of one sets the same updated_at.
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		if wi := r.sum.WorkItemID; !seen[wi] {
			seen[wi] = true
			if err := writeWorkItem(ctx, &st, wi, now, cf); err != nil {
				return fmt.Errorf("write %s: %w", r.file.Path, wrapError(err))
			}
		}
	}
	for _, r := range rows {
		if err := done.Err(); err != nil {
			return fmt.Errorf("write batch: %w", err)
		}
		sum := r.sum
		if _, err := st.summary.ExecContext(ctx, append(r.args(now), s.host)...); err != nil {
			return fmt.Errorf("write %s: %w", r.file.Path, wrapError(err))
		}
		if r.noEvents {
			_, err = st.noEvents.ExecContext(ctx, sum.WorkItemID, sum.FileName)
		} else {
			_, err = st.events.ExecContext(ctx, sum.WorkItemID, sum.FileName, r.events, r.nEvents)
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", r.file.Path, wrapError(err))
		}
		if _, err := st.file.ExecContext(ctx, r.file.Path, sum.WorkItemID, sum.FileName, sum.Phase, nullIntp(sum.Iteration),
			sum.AgentKind, r.file.Size, r.file.MTime, now); err != nil {
			return fmt.Errorf("write %s: %w", r.file.Path, wrapError(err))
		}
		find := true
		if cf != nil && r.noRun {
			has, err := cf.has(ctx, tx, sum.WorkItemID, sum.FileName)
			if err != nil {
				return fmt.Errorf("reconcile cost of %s: %w", r.file.Path, wrapError(err))
			}
			find = has
		}
		if err := reconcileCost(ctx, &st, sum, r.file.Path, find); err != nil {
			return fmt.Errorf("reconcile cost of %s: %w", r.file.Path, wrapError(err))
		}
		if cf != nil {
			if files := cf[sum.WorkItemID]; files != nil {
				files[sum.FileName] = true
			}
		}
	}
	if err := s.indexSessions(ctx, tx, rows); err != nil {
		return err
	}
	if err := indexSearch(ctx, tx, rows, s.d); err != nil {
		return err
	}
	if err := writeUsage(ctx, tx, rows); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write batch: %w", wrapError(err))
	}
	return nil
}
