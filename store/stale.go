package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"

	"github.com/agentsift/sift/core/proc"
)

// invocationMeta is the raw_metadata_json of a recorded invocation: who
// wrote it, the stream file, and the process that runs it (pid, start
// time, host, pid namespace, boot).
func invocationMeta(file string, o proc.Owner) map[string]any {
	m := map[string]any{"source": SourceSiftRun, "path": file}
	if o.PID > 0 {
		m["pid"] = o.PID
		m["pidStart"] = o.Start
		m["host"] = o.Host
		m["pidNamespace"] = o.PIDNamespace
		m["boot"] = o.Boot
	}
	return m
}

// StaleRun is an invocation whose process died without recording its end.
type StaleRun struct {
	ID         int64
	WorkItemID string
	PID        int
	// File is the stream file the run wrote, when known.
	File string
}

// openRunsSQL lists the invocations of sift run that have not ended and
// carry an owner.
func openRunsSQL(d dialect) string {
	return `SELECT id, work_item_id, COALESCE(` + d.jsonText("raw_metadata_json", "path") + `, ''),
	` + d.jsonText("raw_metadata_json", "pid") + `, COALESCE(` + d.jsonText("raw_metadata_json", "pidStart") + `, ''),
	COALESCE(` + d.jsonText("raw_metadata_json", "host") + `, ''), COALESCE(` + d.jsonText("raw_metadata_json", "pidNamespace") + `, ''),
	COALESCE(` + d.jsonText("raw_metadata_json", "boot") + `, '')
	FROM work_item_costs WHERE ended_at IS NULL AND ` + d.jsonText("raw_metadata_json", "source") + ` = ?
	AND ` + d.jsonText("raw_metadata_json", "pid") + ` IS NOT NULL ORDER BY id`
}

// ReapStaleRuns finds the invocations recorded by this host whose process
// is gone (see Owner) and ends them: ended_at is the stream file's last
// write (else now), the exit code stays unknown (NULL), and
// raw_metadata_json gets `"stale": true` with the reason. A work item left
// with no running invocation becomes terminal, so that the next import
// reads its files instead of deferring them forever. Rows of another
// host or pid namespace, and rows without an owner, are left alone. Open
// Whether a process is gone is the caller's to judge (proc.Judge): the
// store reads and writes rows only. The application layer calls it when
// it opens the store, so every command heals what a killed `sift run`
// left behind.
func (s *Store) ReapStaleRuns(ctx context.Context, gone func(proc.Owner) bool) ([]StaleRun, error) {
	rows, err := s.w.QueryContext(ctx, openRunsSQL(s.d), SourceSiftRun)
	if err != nil {
		return nil, fmt.Errorf("stale runs: %w", wrapError(err))
	}
	var stale []StaleRun
	for rows.Next() {
		var r StaleRun
		var pid sql.NullString
		var o proc.Owner
		if err := rows.Scan(&r.ID, &r.WorkItemID, &r.File, &pid, &o.Start, &o.Host, &o.PIDNamespace, &o.Boot); err != nil {
			rows.Close()
			return nil, fmt.Errorf("stale runs: %w", err)
		}
		n, err := strconv.Atoi(pid.String)
		if err != nil || n <= 0 {
			continue
		}
		o.PID, r.PID = n, n
		if gone(o) {
			stale = append(stale, r)
		}
	}
	err = rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("stale runs: %w", wrapError(err))
	}
	if len(stale) == 0 {
		return nil, nil
	}
	items := map[string]bool{}
	var order []string
	for _, r := range stale {
		end := s.now()
		if fi, err := os.Stat(r.File); err == nil && r.File != "" {
			end = fi.ModTime()
		}
		q := s.d.markStaleSQL()
		if _, err := s.w.ExecContext(ctx, q, end.UnixMilli(), strconv.Itoa(r.PID), s.now().UnixMilli(), r.ID); err != nil {
			return nil, fmt.Errorf("mark run %d stale: %w", r.ID, wrapError(err))
		}
		if err := s.interrupt(ctx, r.File); err != nil {
			return nil, err
		}
		if !items[r.WorkItemID] {
			items[r.WorkItemID] = true
			order = append(order, r.WorkItemID)
		}
	}
	for _, wi := range order {
		var open int
		if err := s.w.QueryRowContext(ctx, `SELECT COUNT(*) FROM work_item_costs WHERE work_item_id = ? AND ended_at IS NULL
			AND `+s.d.jsonText("raw_metadata_json", "source")+` = ?`, wi, SourceSiftRun).Scan(&open); err != nil {
			return nil, fmt.Errorf("stale runs of %s: %w", wi, wrapError(err))
		}
		if open > 0 {
			continue
		}
		if _, err := s.w.ExecContext(ctx, `UPDATE work_items SET state = 'terminal', updated_at = ? WHERE id = ?`,
			s.now().UnixMilli(), wi); err != nil {
			return nil, fmt.Errorf("stale runs of %s: %w", wi, wrapError(err))
		}
	}
	return stale, nil
}

// sqliteMarkStaleSQL is ReapStaleRuns's update of a run whose process is
// gone, on SQLite (pgMarkStaleSQL on PostgreSQL). The guard on ended_at
// leaves a run another sift ended meanwhile alone; started_at bounds the
// end from below.
const sqliteMarkStaleSQL = `UPDATE work_item_costs SET ended_at = MAX(COALESCE(started_at, ?1), ?1),
	raw_metadata_json = json_set(raw_metadata_json, '$.stale', json('true'),
		'$.staleReason', 'process ' || ?2 || ' is gone: sift run was killed before it recorded the end',
		'$.staleAt', ?3)
	WHERE id = ?4 AND ended_at IS NULL`
