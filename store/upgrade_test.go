package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
)

// mainVersion is the last migration of the sift that kept a version line
// per backend (before the lines merged): SQLite's 0019, which was
// PostgreSQL's 0010.
const mainVersion = 19

// TestUpgradeFromSeparateLines opens a store made by the sift whose two
// backends had their own migration lines, with a row in every table the
// store keeps (decisions among them), and checks that every row survives
// the upgrade, column for column, on the backend the suite runs on. The
// old store is made as that sift made it: its migration files (the
// same files, numbered on PostgreSQL as they were then) applied in order
// and recorded under their old versions.
func TestUpgradeFromSeparateLines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := testDB(t)
	db := openRaw(t, path)
	makeMainStore(t, db)
	for _, q := range mainRows() {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	before := dumpTables(t, db, nil)
	db.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	after := dumpTables(t, s.r, before)
	for table, rows := range before {
		if table == "schema_migrations" {
			continue
		}
		if len(rows.rows) == 0 {
			t.Errorf("%s: the fixture has no row in it", table)
		}
		if !slices.Equal(rows.rows, after[table].rows) {
			t.Errorf("%s: rows before the upgrade\n%s\nafter\n%s", table,
				strings.Join(rows.rows, "\n"), strings.Join(after[table].rows, "\n"))
		}
	}
	// The versions recorded are those of the shared line.
	var first, last, n int
	if err := s.r.QueryRowContext(ctx, `SELECT MIN(version), MAX(version), COUNT(*) FROM schema_migrations`).Scan(&first, &last, &n); err != nil {
		t.Fatal(err)
	}
	ms, _ := mustMigrations(t)
	if first != ms[0].version || last != ms[len(ms)-1].version || n != len(ms) {
		t.Errorf("versions %d to %d (%d) recorded after the upgrade, want %d to %d (%d)",
			first, last, n, ms[0].version, ms[len(ms)-1].version, len(ms))
	}
	// The decisions read back through the store, as the inbox reads them.
	ds, err := s.Decisions(ctx, review.SessionKey{WorkItemID: "wi-1", FileName: "a.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 {
		t.Errorf("%d decisions read back, want 2: %+v", len(ds), ds)
	}
}

// openRaw opens the database at path with the driver only: no store,
// no migration.
func openRaw(t *testing.T, path string) *sql.DB {
	t.Helper()
	driver, dsn := "sqlite", path
	if onPostgres() {
		driver = "pgx"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// makeMainStore applies, to db, the migrations up to mainVersion as the
// sift of separate lines did: on PostgreSQL each under the version it had
// then.
func makeMainStore(t *testing.T, db *sql.DB) {
	t.Helper()
	ctx := context.Background()
	ms, intType := mustMigrations(t)
	if _, err := db.ExecContext(ctx, `CREATE TABLE schema_migrations (
		version `+intType+` PRIMARY KEY, name TEXT NOT NULL, applied_at `+intType+` NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.version > mainVersion {
			break
		}
		v := m.version
		if onPostgres() {
			v = max(1, m.version-9)
		}
		if _, err := db.ExecContext(ctx, m.sql); err != nil {
			t.Fatalf("migration %04d_%s: %v", m.version, m.name, err)
		}
		if _, err := db.ExecContext(ctx, fmt.Sprintf(
			`INSERT INTO schema_migrations (version, name, applied_at) VALUES (%d, '%s', 1)`, v, m.name)); err != nil {
			t.Fatal(err)
		}
	}
}

// mustMigrations returns the migrations of the backend the suite runs on
// and its integer type.
func mustMigrations(t *testing.T) ([]migration, string) {
	t.Helper()
	ms, err := migrations()
	intType := "INTEGER"
	if onPostgres() {
		ms, err = pgMigrations()
		intType = "BIGINT"
	}
	if err != nil {
		t.Fatal(err)
	}
	return ms, intType
}

// mainRows fills a store of the schema of mainVersion: a row in each
// table, written as literals since the two drivers spell placeholders
// differently.
func mainRows() []string {
	rows := sharedRows
	if onPostgres() {
		return append(rows[:len(rows):len(rows)],
			`INSERT INTO search_fts (rowid, body, parts) VALUES (1, 'ran the tests', '[]')`)
	}
	return append(rows[:len(rows):len(rows)], `INSERT INTO search_text (id, doc) VALUES (1, X'00')`)
}

// sharedRows are the rows of mainRows in SQL both backends take. The
// summary's triage_rank, 2, is the one migration 0021 computes for it (a
// decided captured run of known cost), so that the upgrade changes no row.
var sharedRows = []string{
	`UPDATE meta SET value = 'host-a' WHERE key = 'legacy_host'`,
	`INSERT INTO work_items (id, state, created_at, updated_at) VALUES ('wi-1', 'terminal', 1000, 2000)`,
	`INSERT INTO work_item_costs (id, work_item_id, phase, iteration, agent_kind, file_name, started_at, ended_at,
		exit_code, input_tokens, output_tokens, cached_input_tokens, cost_usd, raw_metadata_json, cwd, model,
		model_source, git_head_before, git_head_after)
		VALUES (1, 'wi-1', 'build', 1, 'claude', 'a.jsonl', 1000, 2000, 0, 10, 20, 5, 0.25,
		'{"source":"sift-run","path":"/logs/wi-1/a.jsonl"}', '/work', 'opus', 'config', 'abc', 'def')`,
	`INSERT INTO agent_stream_summaries (work_item_id, file_name, phase, iteration, agent_kind, total_duration_ms,
		time_to_first_token_ms, input_tokens, output_tokens, cached_input_tokens, estimated_usd, tool_calls_json,
		stalls_json, final_assistant_message, summarised_at, session_id, model, cost_source, outcome, started_at,
		ended_at, activity_at, thinking_ms, executing_ms, total_tokens, tool_call_count, stall_count, error_count,
		approval_count, flags, flagged, line_count, byte_count, path, brief_json, turns_json, sort_started,
		triage_rank, review_state, live, live_tool, live_wait, new_since, outcome_rank, host_id)
		VALUES ('wi-1', 'a.jsonl', 'build', 1, 'claude', 1000, 50, 10, 20, 5, 0.25,
		'[{"id":"t1","name":"Bash"}]', '[]', 'done', 2000, 'sess-1', 'opus', 'stream', 'success', 1000,
		2000, 2000, 300, 400, 35, 1, 0, 0, 0, 'flagged_word', 1, 12, 3400, '/logs/wi-1/a.jsonl',
		'{"outcome":"success"}', '[]', 1000, 2, 'reviewed', '', '', '', 0, 2, 'host-a')`,
	`INSERT INTO stream_files (path, work_item_id, file_name, phase, iteration, agent_kind, size, mtime, imported_at)
		VALUES ('/logs/wi-1/a.jsonl', 'wi-1', 'a.jsonl', 'build', 1, 'claude', 3400, 1900, 2100)`,
	`INSERT INTO review_events (work_item_id, file_name, events_json, event_count)
		VALUES ('wi-1', 'a.jsonl', '[{"kind":"tool"}]', 1)`,
	`INSERT INTO review_decisions (id, work_item_id, file_name, turn_id, tool_call_id, decision, note,
		reviewer_id, created_at, supersedes, seen_line)
		VALUES (1, 'wi-1', 'a.jsonl', '', '', 'needs_followup', 'look again', 'ann', 3000, 0, 12)`,
	`INSERT INTO review_decisions (id, work_item_id, file_name, turn_id, tool_call_id, decision, note,
		reviewer_id, created_at, supersedes, seen_line)
		VALUES (2, 'wi-1', 'a.jsonl', '', '', 'reviewed', '', 'bob', 4000, 1, 12)`,
	`INSERT INTO decision_latest (work_item_id, file_name, turn_id, tool_call_id, decision_id, decision,
		seen_line, decided_at) VALUES ('wi-1', 'a.jsonl', '', '', 2, 'reviewed', 12, 4000)`,
	`INSERT INTO meta (key, value) VALUES ('upgrade_test', 'kept')`,
	`INSERT INTO usage_files (path, work_item_id, file_name, agent_kind, session_id, parent_tool_call_id,
		first_at, models, entry_count, entries)
		VALUES ('/logs/wi-1/a.jsonl', 'wi-1', 'a.jsonl', 'claude', 'sess-1', 'call-1', 1000, 'opus', 0, '')`,
	`INSERT INTO purged_files (path, work_item_id, file_name, purged_at) VALUES ('/logs/old.jsonl', 'wi-0', 'old.jsonl', 500)`,
	`INSERT INTO session_filter (work_item_id, file_name, tool_names) VALUES ('wi-1', 'a.jsonl', '["Bash"]')`,
	`INSERT INTO search_docs (id, work_item_id, file_name) VALUES (1, 'wi-1', 'a.jsonl')`,
	`INSERT INTO sweep_runs (id, started_at, elapsed_ms, runner, files_deleted, bytes_deleted, files_by_size,
		sessions_swept, events_swept, work_items_swept, failures, first_failure)
		VALUES (1, 5000, 20, 'sift sweep', 1, 100, 0, 1, 1, 0, 0, '')`,
	`INSERT INTO import_runs (id, started_at, elapsed_ms, source, roots, files_found, files_read, sessions,
		unchanged, unparseable, first_error, ignored, deferred, purged, store_error)
		VALUES (1, 900, 30, 'logs', '["/logs"]', 1, 1, 1, 0, 0, '', 0, 0, 0, '')`,
	`INSERT INTO review_claims (work_item_id, file_name, reviewer_id, host, claimed_at, expires_at)
		VALUES ('wi-1', 'a.jsonl', 'ann', 'host-a', 2500, 9999999999999)`,
}

// tableRows is a table's columns and its rows, each printed on a line,
// sorted.
type tableRows struct {
	cols []string
	rows []string
}

// dumpTables prints every row of every table of db (but the full-text
// index's own), reading each table's columns from like when given: a
// migration may add columns, which the rows kept need not have.
func dumpTables(t *testing.T, db *sql.DB, like map[string]tableRows) map[string]tableRows {
	t.Helper()
	ctx := context.Background()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'search_fts%' AND name != 'sqlite_sequence'`
	if onPostgres() {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
	}
	names := queryStrings(t, db, q)
	out := map[string]tableRows{}
	for _, n := range names {
		cols := like[n].cols
		if like == nil {
			cols = columnsOf(t, db, n)
		} else if cols == nil {
			continue
		}
		rows, err := db.QueryContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+n)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for i, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, "%s=%v ", cols[i], v)
			}
			lines = append(lines, b.String())
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		slices.Sort(lines)
		out[n] = tableRows{cols: cols, rows: lines}
	}
	return out
}

// columnsOf lists a table's columns.
func columnsOf(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	if onPostgres() {
		return queryStrings(t, db, `SELECT column_name FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = '`+table+`' ORDER BY ordinal_position`)
	}
	return queryStrings(t, db, `SELECT name FROM pragma_table_info('`+table+`')`)
}

// queryStrings runs a query of one text column.
func queryStrings(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}
