package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
)

// SourceStreamAnalyser is raw_metadata_json.source of a cost row the
// importer inserted because no invocation was recorded for a stream.
const SourceStreamAnalyser = "agent_stream_analyser"

// SourceSiftRun is raw_metadata_json.source of a row RecordInvocation wrote.
const SourceSiftRun = "sift_run"

// costFindSQL finds the row a summary reconciles: same work item, phase
// (or the detailed phase's canonical one), iteration and agent kind, and
// not another file's; the row already naming this file first, else the
// newest. A row another file has claimed is that file's cost: taking it
// over would lose it (a project's history sessions all share work item,
// phase and agent).
const costFindSQL = `SELECT id FROM work_item_costs
	WHERE work_item_id = ?1 AND phase IN (?2, ?3) AND iteration IS NOT DISTINCT FROM ?4 AND agent_kind = ?5
	AND (file_name IS NULL OR file_name = ?6)
	ORDER BY file_name IS NOT NULL DESC, id DESC LIMIT 1`

// costUpdateSQL writes a summary's tokens and cost into a row. The
// harness's cost is authoritative and replaces the row's; an estimate only
// fills a missing one. A stream-sourced row also takes the summary's window.
func costUpdateSQL(d dialect) string {
	source := d.jsonText("raw_metadata_json", "source")
	return `UPDATE work_item_costs SET
	input_tokens = ?1, output_tokens = ?2, cached_input_tokens = ?3,
	cost_usd = CASE WHEN ?5 = 'harness' THEN ?4 ELSE COALESCE(cost_usd, ?4) END,
	file_name = COALESCE(file_name, ?6),
	started_at = CASE WHEN ` + source + ` = '` + SourceStreamAnalyser + `' THEN ?7 ELSE COALESCE(started_at, ?7) END,
	ended_at = CASE WHEN ` + source + ` = '` + SourceStreamAnalyser + `' THEN ?8 ELSE COALESCE(ended_at, ?8) END,
	raw_metadata_json = ` + d.jsonSetText("raw_metadata_json", "costSource", "?5") + `
	WHERE id = ?9`
}

// costInsertSQL inserts a stream-sourced row.
func costInsertSQL(d dialect) string {
	return `INSERT INTO work_item_costs (work_item_id, phase, iteration, agent_kind, file_name,
	started_at, ended_at, input_tokens, output_tokens, cached_input_tokens, cost_usd, raw_metadata_json)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ` +
		d.jsonObject("'source'", "'"+SourceStreamAnalyser+"'", "'costSource'", "?", "'path'", "?") + `)`
}

// reconcileCost updates the invocation row matching a summary, or inserts
// a stream-sourced one; with find false, the caller knows there is none.
func reconcileCost(ctx context.Context, st *batchStmts, sum *summary.Summary, path string, find bool) error {
	var id int64
	err := sql.ErrNoRows
	if find {
		err = st.costFind.QueryRowContext(ctx, sum.WorkItemID, sum.Phase, ingest.CanonicalPhase(sum.Phase),
			nullIntp(sum.Iteration), sum.AgentKind, sum.FileName).Scan(&id)
	}
	switch {
	case err == sql.ErrNoRows:
		_, err = st.costInsert.ExecContext(ctx, sum.WorkItemID, sum.Phase, nullIntp(sum.Iteration), sum.AgentKind,
			sum.FileName, msPtr(sum.StartedAt), msPtr(sum.EndedAt), nullInt(sum.InputTokens), nullInt(sum.OutputTokens),
			nullInt(sum.CachedInputTokens), nullFloat(sum.EstimatedUSD), string(sum.CostSource), path)
		return err
	case err != nil:
		return err
	}
	_, err = st.costUpdate.ExecContext(ctx, nullInt(sum.InputTokens), nullInt(sum.OutputTokens),
		nullInt(sum.CachedInputTokens), nullFloat(sum.EstimatedUSD), string(sum.CostSource), sum.FileName,
		msPtr(sum.StartedAt), msPtr(sum.EndedAt), id)
	return err
}

// Cost is one row of work_item_costs: an agent invocation and what it
// cost.
type Cost struct {
	ID           int64
	WorkItemID   string
	Phase        string
	Iteration    *int
	AgentKind    string
	FileName     string
	Start, End   *int64 // unix ms
	ExitCode     *int
	InputTokens  *int64
	OutputTokens *int64
	CachedTokens *int64
	CostUSD      *float64
	// Model and ModelSource are the model `sift run` read at the
	// invocation's start and where; empty when none was recorded.
	Model, ModelSource string
	// RawMetadataJSON is the writer's metadata; its "source" names the
	// writer (SourceSiftRun, SourceStreamAnalyser).
	RawMetadataJSON string
}

// Costs returns the invocation rows of a work item, oldest first.
func (s *Store) Costs(ctx context.Context, workItemID string) ([]Cost, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, work_item_id, phase, iteration, agent_kind, COALESCE(file_name, ''),
		started_at, ended_at, exit_code, input_tokens, output_tokens, cached_input_tokens, cost_usd, raw_metadata_json,
		COALESCE(model, ''), COALESCE(model_source, '')
		FROM work_item_costs WHERE work_item_id = ? ORDER BY id`, workItemID)
	if err != nil {
		return nil, fmt.Errorf("costs: %w", wrapError(err))
	}
	defer rows.Close()
	var out []Cost
	for rows.Next() {
		var c Cost
		var it, start, end, exit, in, outT, cached sql.NullInt64
		var usd sql.NullFloat64
		if err := rows.Scan(&c.ID, &c.WorkItemID, &c.Phase, &it, &c.AgentKind, &c.FileName, &start, &end, &exit,
			&in, &outT, &cached, &usd, &c.RawMetadataJSON, &c.Model, &c.ModelSource); err != nil {
			return nil, fmt.Errorf("costs: %w", err)
		}
		c.RawMetadataJSON = s.d.storedJSON(c.RawMetadataJSON)
		c.Iteration, c.ExitCode = intp(it), intp(exit)
		c.Start, c.End = i64p(start), i64p(end)
		c.InputTokens, c.OutputTokens, c.CachedTokens = i64p(in), i64p(outT), i64p(cached)
		if usd.Valid {
			c.CostUSD = &usd.Float64
		}
		out = append(out, c)
	}
	return out, wrapError(rows.Err())
}

// intp is a nullable integer column as an *int, nil for NULL.
func intp(v sql.NullInt64) *int {
	if !v.Valid {
		return nil
	}
	n := int(v.Int64)
	return &n
}

func i64p(v sql.NullInt64) *int64 {
	if !v.Valid {
		return nil
	}
	return &v.Int64
}
