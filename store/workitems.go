package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/proc"
)

// WorkItemState is where a work item is in its lifecycle.
type WorkItemState string

// The work item states. Summaries of a work item are (re)computed when it
// becomes terminal.
const (
	WorkItemRunning  WorkItemState = "running"
	WorkItemTerminal WorkItemState = "terminal"
)

// IsTerminal reports whether no invocation is under way.
func (st WorkItemState) IsTerminal() bool { return st == WorkItemTerminal }

// Invocation is one agent run started by `sift run`.
type Invocation struct {
	WorkItemID string
	Phase      string
	// Iteration is 0 when none applies.
	Iteration int
	// AgentKind is the declared harness; it wins over sniffing when the
	// stream is summarized.
	AgentKind string
	// File is the path of the stream file the run writes.
	File string
	// Start and End bound the run; they are the projection window of a
	// timestamp-less stream. End is zero while it runs.
	Start, End time.Time
	// ExitCode is the agent's exit status, nil while it runs.
	ExitCode *int
	// Cwd is the agent's working directory, made absolute; empty when
	// unknown. The inbox resolves the paths a session names against it.
	Cwd string
	// Owner is the process that runs the invocation (sift run itself),
	// so that a later sift can mark the run stale once that process is
	// gone (ReapStaleRuns). The zero Owner is never judged.
	Owner proc.Owner
	// Model is the model the run asked for, as read at its start (its
	// arguments, environment or CLI configuration); ModelSource says
	// where ("--model", "~/.codex/config.toml"). Both are empty when
	// unknown; the stream's own model wins over them.
	Model, ModelSource string
	// Args are the agent's arguments as sift run passed them, redacted:
	// the session's prompt when its stream does not carry it.
	Args []string
}

// RecordInvocation records the start of an agent run: its work item
// becomes running (created when new) and a work_item_costs row is written
// with raw_metadata_json.source = "sift_run". It returns the row's id for
// FinishInvocation.
func (s *Store) RecordInvocation(ctx context.Context, inv Invocation) (int64, error) {
	if inv.WorkItemID == "" || inv.Phase == "" || inv.AgentKind == "" {
		return 0, errors.New("record invocation: work item, phase and agent kind are required")
	}
	file := inv.File
	if file != "" {
		if abs, err := filepath.Abs(file); err == nil {
			file = abs
		}
	}
	if inv.Start.IsZero() {
		inv.Start = s.now()
	}
	var cwd sql.NullString
	if inv.Cwd != "" {
		abs, err := filepath.Abs(inv.Cwd)
		if err != nil {
			return 0, fmt.Errorf("record invocation: cwd: %w", err)
		}
		cwd = sql.NullString{String: abs, Valid: true}
	}
	m := invocationMeta(file, inv.Owner)
	if len(inv.Args) > 0 {
		m["args"] = inv.Args
	}
	meta, err := json.Marshal(m)
	if err != nil {
		return 0, err
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return 0, fmt.Errorf("record invocation: %w", wrapError(err))
	}
	defer tx.Rollback()
	now := s.now().UnixMilli()
	if _, err := tx.ExecContext(ctx, `INSERT INTO work_items (id, state, created_at, updated_at) VALUES (?, 'running', ?, ?)
		ON CONFLICT (id) DO UPDATE SET state = 'running', updated_at = excluded.updated_at`, inv.WorkItemID, now, now); err != nil {
		return 0, fmt.Errorf("record invocation: %w", wrapError(err))
	}
	var iter sql.NullInt64
	if inv.Iteration > 0 {
		iter = sql.NullInt64{Int64: int64(inv.Iteration), Valid: true}
	}
	var exit sql.NullInt64
	if inv.ExitCode != nil {
		exit = sql.NullInt64{Int64: int64(*inv.ExitCode), Valid: true}
	}
	name := "" // no file yet: the first summary of the phase claims the row
	if file != "" {
		name = filepath.Base(file)
	}
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO work_item_costs (work_item_id, phase, iteration, agent_kind, file_name,
		started_at, ended_at, exit_code, raw_metadata_json, cwd, model, model_source)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		inv.WorkItemID, inv.Phase, iter, inv.AgentKind, emptyNull(name),
		ms(inv.Start), ms(inv.End), exit, string(meta), cwd, emptyNull(inv.Model), emptyNull(inv.ModelSource)).Scan(&id); err != nil {
		return 0, fmt.Errorf("record invocation: %w", wrapError(err))
	}
	return id, wrapError(tx.Commit())
}

// InvocationCwd returns the working directory `sift run` recorded for the
// invocation that wrote a session's stream file (the newest naming it);
// "" when none was recorded: a file imported without an invocation, an
// agent's history, a run recorded before the column existed.
func (s *Store) InvocationCwd(ctx context.Context, workItemID, fileName string) (string, error) {
	var cwd string
	err := s.r.QueryRowContext(ctx, `SELECT cwd FROM work_item_costs
		WHERE work_item_id = ? AND file_name = ? AND cwd IS NOT NULL ORDER BY id DESC LIMIT 1`,
		workItemID, fileName).Scan(&cwd)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("invocation cwd %s/%s: %w", workItemID, fileName, wrapError(err))
	}
	return cwd, nil
}

// InvocationArgs returns the arguments `sift run` passed the agent whose
// run wrote a session's stream file (the newest invocation naming it);
// nil when none were recorded.
func (s *Store) InvocationArgs(ctx context.Context, workItemID, fileName string) ([]string, error) {
	var raw sql.NullString
	err := s.r.QueryRowContext(ctx, `SELECT `+s.d.jsonText("raw_metadata_json", "args")+` FROM work_item_costs
		WHERE work_item_id = ? AND file_name = ? AND `+s.d.jsonText("raw_metadata_json", "args")+` IS NOT NULL
		ORDER BY id DESC LIMIT 1`, workItemID, fileName).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !raw.Valid {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("invocation args %s/%s: %w", workItemID, fileName, wrapError(err))
	}
	if len(raw.String) > maxArgsJSON {
		return nil, nil // not what sift run writes (a shared database's row)
	}
	var args []string
	if err := json.Unmarshal([]byte(raw.String), &args); err != nil {
		return nil, nil // not a list: written by something else
	}
	return args, nil
}

// maxArgsJSON bounds the recorded arguments read back: sift run writes at
// most 64 arguments of 4 KiB each; a larger value is another writer's.
const maxArgsJSON = 1 << 20

// RecordGitHeads records the commits (HEAD) of the invocation's git work
// tree before and after its run; an empty one is left as it was, so that
// the one before can be recorded when the run starts and the one after
// when it ends.
func (s *Store) RecordGitHeads(ctx context.Context, id int64, before, after string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE work_item_costs SET git_head_before = COALESCE(?, git_head_before),
		git_head_after = COALESCE(?, git_head_after) WHERE id = ?`, emptyNull(before), emptyNull(after), id)
	if err != nil {
		return fmt.Errorf("record git heads of invocation %d: %w", id, wrapError(err))
	}
	return nil
}

// InvocationGitHeads returns the commits `sift run` recorded before and
// after the run that wrote a session's stream file (the newest
// invocation naming it); empty when unknown.
func (s *Store) InvocationGitHeads(ctx context.Context, workItemID, fileName string) (before, after string, err error) {
	var b, a sql.NullString
	err = s.r.QueryRowContext(ctx, `SELECT git_head_before, git_head_after FROM work_item_costs
		WHERE work_item_id = ? AND file_name = ? AND (git_head_before IS NOT NULL OR git_head_after IS NOT NULL)
		ORDER BY id DESC LIMIT 1`, workItemID, fileName).Scan(&b, &a)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("invocation git heads %s/%s: %w", workItemID, fileName, wrapError(err))
	}
	return b.String, a.String, nil
}

// FinishInvocation records the end of an agent run: its end time and exit
// code. When it was the work item's last running invocation the work item
// becomes terminal, and FinishInvocation reports it (last): the caller then
// reads the work item's stream files (ingest.CompleteWorkItem), once, with
// its summary options. The store reads no file.
func (s *Store) FinishInvocation(ctx context.Context, id int64, end time.Time, exitCode int) (last bool, err error) {
	if end.IsZero() {
		end = s.now()
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return false, fmt.Errorf("finish invocation %d: %w", id, wrapError(err))
	}
	defer tx.Rollback()
	var wi string
	err = tx.QueryRowContext(ctx, `UPDATE work_item_costs SET ended_at = ?, exit_code = ? WHERE id = ?
		RETURNING work_item_id`, end.UnixMilli(), exitCode, id).Scan(&wi)
	if err != nil {
		return false, fmt.Errorf("finish invocation %d: %w", id, wrapError(err))
	}
	var open int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM work_item_costs WHERE work_item_id = ? AND ended_at IS NULL
		AND `+s.d.jsonText("raw_metadata_json", "source")+` = ?`, wi, SourceSiftRun).Scan(&open); err != nil {
		return false, fmt.Errorf("finish invocation %d: %w", id, wrapError(err))
	}
	if open == 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE work_items SET state = 'terminal', updated_at = ? WHERE id = ?`,
			s.now().UnixMilli(), wi); err != nil {
			return false, fmt.Errorf("finish invocation %d: %w", id, wrapError(err))
		}
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("finish invocation %d: %w", id, wrapError(err))
	}
	return open == 0, nil
}

// EndWorkItem implements ingest.Completer: it makes a work item terminal
// and returns its known stream files, those of the ingest index and those
// its invocations recorded. An unknown work item is ErrNotFound.
func (s *Store) EndWorkItem(ctx context.Context, id string) ([]string, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE work_items SET state = 'terminal', updated_at = ? WHERE id = ?`, s.now().UnixMilli(), id)
	if err != nil {
		return nil, fmt.Errorf("complete work item %s: %w", id, wrapError(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, fmt.Errorf("work item %s: %w", id, ErrNotFound)
	}
	return s.workItemFiles(ctx, id)
}

// workItemFiles lists the known stream files of a work item.
func (s *Store) workItemFiles(ctx context.Context, id string) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT path FROM stream_files WHERE work_item_id = ?
		UNION SELECT `+s.d.jsonText("raw_metadata_json", "path")+` FROM work_item_costs
		WHERE work_item_id = ? AND COALESCE(`+s.d.jsonText("raw_metadata_json", "path")+`, '') != ''`, id, id)
	if err != nil {
		return nil, fmt.Errorf("work item %s files: %w", id, wrapError(err))
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, wrapError(rows.Err())
}

// RetryWorkItem invalidates a work item's cached summaries (and their
// review events) and makes it running again: imports leave its files alone
// until the next terminal transition (EndWorkItem, FinishInvocation)
// has them read afresh. Decisions are kept. An unknown work item is
// ErrNotFound.
func (s *Store) RetryWorkItem(ctx context.Context, id string) error {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("retry work item %s: %w", id, wrapError(err))
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE work_items SET state = 'running', updated_at = ? WHERE id = ?`, s.now().UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("retry work item %s: %w", id, wrapError(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("work item %s: %w", id, ErrNotFound)
	}
	for _, q := range []string{
		`DELETE FROM agent_stream_summaries WHERE work_item_id = ?`,
		`UPDATE stream_files SET size = -1 WHERE work_item_id = ?`,
	} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return fmt.Errorf("retry work item %s: %w", id, wrapError(err))
		}
	}
	return wrapError(tx.Commit())
}

// WorkItemState returns a work item's state; ErrNotFound when unknown.
func (s *Store) WorkItemState(ctx context.Context, id string) (WorkItemState, error) {
	var st string
	if err := s.r.QueryRowContext(ctx, `SELECT state FROM work_items WHERE id = ?`, id).Scan(&st); err != nil {
		return "", fmt.Errorf("work item %s: %w", id, wrapError(err))
	}
	return WorkItemState(st), nil
}

// runningWorkItems returns the ids of running work items.
func (s *Store) runningWorkItems(ctx context.Context) (map[string]bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id FROM work_items WHERE state = 'running'`)
	if err != nil {
		return nil, fmt.Errorf("running work items: %w", wrapError(err))
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, wrapError(rows.Err())
}

// indexed loads the ingest index.
func (s *Store) indexed(ctx context.Context) (map[string]ingest.FileStat, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT f.path, f.size, f.mtime, f.file_name, COALESCE(s.session_id, '')
		FROM stream_files f LEFT JOIN agent_stream_summaries s ON s.work_item_id = f.work_item_id AND s.file_name = f.file_name`)
	if err != nil {
		return nil, fmt.Errorf("ingest index: %w", wrapError(err))
	}
	defer rows.Close()
	out := map[string]ingest.FileStat{}
	for rows.Next() {
		var p string
		var st ingest.FileStat
		if err := rows.Scan(&p, &st.Size, &st.MTime, &st.Name, &st.SessionID); err != nil {
			return nil, err
		}
		out[p] = st
	}
	return out, wrapError(rows.Err())
}

// Invocations implements ingest.Store: every run not inserted by an
// import itself, by work item, oldest first.
func (s *Store) Invocations(ctx context.Context) (ingest.Invocations, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT work_item_id, phase, iteration, agent_kind, COALESCE(file_name, ''),
		started_at, ended_at, exit_code, COALESCE(model, ''), COALESCE(model_source, '') FROM work_item_costs
		WHERE COALESCE(`+s.d.jsonText("raw_metadata_json", "source")+`, '') != ? ORDER BY id`, SourceStreamAnalyser)
	if err != nil {
		return nil, fmt.Errorf("invocations: %w", wrapError(err))
	}
	defer rows.Close()
	out := ingest.Invocations{}
	for rows.Next() {
		var inv ingest.Invocation
		var wi string
		var iter, start, end, exit sql.NullInt64
		if err := rows.Scan(&wi, &inv.Phase, &iter, &inv.Agent, &inv.File, &start, &end, &exit,
			&inv.Model, &inv.ModelSource); err != nil {
			return nil, err
		}
		inv.Iteration, inv.ExitCode = intp(iter), intp(exit)
		inv.Start, inv.End = fromMs(start), fromMs(end)
		out[wi] = append(out[wi], inv)
	}
	return out, wrapError(rows.Err())
}
