package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
)

func TestOpenMigratesFromZero(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "nested", "sift.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var mode string
	if err := s.r.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
	// A new database gets the large page size, and auto-vacuum still.
	var size, vacuum int
	if err := s.r.QueryRowContext(ctx, "PRAGMA page_size").Scan(&size); err != nil || size != pageSize {
		t.Fatalf("page_size = %d, %v; want %d", size, err, pageSize)
	}
	if err := s.r.QueryRowContext(ctx, "PRAGMA auto_vacuum").Scan(&vacuum); err != nil || vacuum != 2 {
		t.Fatalf("auto_vacuum = %d, %v; want 2 (incremental)", vacuum, err)
	}
	// The WAL is checkpointed at SQLite's default size in bytes.
	var ckpt int
	if err := s.w.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&ckpt); err != nil || ckpt != walCheckpointBytes/pageSize {
		t.Fatalf("wal_autocheckpoint = %d, %v; want %d", ckpt, err, walCheckpointBytes/pageSize)
	}
	var fk int
	if err := s.w.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("foreign_keys = %d, %v", fk, err)
	}
	// The writer's statement journals stay in memory.
	var temp int
	if err := s.w.QueryRowContext(ctx, "PRAGMA temp_store").Scan(&temp); err != nil || temp != 2 {
		t.Fatalf("writer temp_store = %d, %v; want 2 (memory)", temp, err)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	var v int
	if err := s.r.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_migrations").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if v != ms[len(ms)-1].version {
		t.Fatalf("schema version %d, want %d", v, ms[len(ms)-1].version)
	}
	for _, table := range []string{"work_items", "work_item_costs", "agent_stream_summaries", "stream_files",
		"review_events", "review_decisions", "decision_latest", "meta"} {
		var n int
		if err := s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(&n); err != nil || n != 1 {
			t.Errorf("table %s missing (%v)", table, err)
		}
	}
	// The seed's columns are all there.
	for _, col := range []string{"work_item_id", "file_name", "phase", "iteration", "agent_kind", "total_duration_ms",
		"time_to_first_token_ms", "input_tokens", "output_tokens", "cached_input_tokens", "estimated_usd",
		"tool_calls_json", "stalls_json", "final_assistant_message", "summarised_at"} {
		var n int
		if err := s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM pragma_table_info('agent_stream_summaries') WHERE name = ?", col).Scan(&n); err != nil || n != 1 {
			t.Errorf("seed column %s missing", col)
		}
	}
	s.Close()
	// Reopening applies nothing and keeps the data.
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var rows int
	if err := s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&rows); err != nil || rows != len(ms) {
		t.Fatalf("schema_migrations has %d rows, want %d", rows, len(ms))
	}
}

func TestOpenCorruptFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sift.db")
	junk := []byte(strings.Repeat("this is not a database, it is a grocery list\n", 200))
	if err := os.WriteFile(path, junk, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path)
	if err == nil {
		t.Fatal("Open of a corrupt file succeeded")
	}
	msg := err.Error()
	if !strings.Contains(msg, path) || !strings.Contains(msg, "move it aside") || !strings.Contains(msg, "sift rebuild") {
		t.Fatalf("error does not name the file and what to do: %v", err)
	}
	if strings.Count(msg, "\n") > 0 {
		t.Fatalf("error is not one line: %q", msg)
	}
	b, _ := os.ReadFile(path)
	if string(b) != string(junk) {
		t.Fatal("Open modified the corrupt file")
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/x/data")
	if p, err := DefaultPath(); err != nil || p != "/x/data/sift/sift.db" {
		t.Fatalf("DefaultPath = %q, %v", p, err)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/rev")
	if p, err := DefaultPath(); err != nil || p != "/home/rev/.local/share/sift/sift.db" {
		t.Fatalf("DefaultPath = %q, %v", p, err)
	}
}

func TestErrorMapping(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	writeFakes(t, s, []fake{{wi: "wi", file: "a.jsonl", dur: 1}})
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}, Kind: review.Reviewed}); err != nil {
		t.Fatal(err)
	}
	// Decisions are append-only: the trigger's abort is a conflict.
	_, err := s.w.ExecContext(ctx, "UPDATE review_decisions SET note = 'x'")
	if err = wrapError(err); !errors.Is(err, ErrConflict) {
		t.Fatalf("update of a decision: %v, want ErrConflict", err)
	}
	_, err = s.w.ExecContext(ctx, "INSERT INTO work_items (id, state, created_at, updated_at) VALUES ('wi', 'terminal', 0, 0)")
	if err = wrapError(err); !errors.Is(err, ErrConflict) {
		t.Fatalf("duplicate work item: %v, want ErrConflict", err)
	}
	if _, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi", FileName: "missing.jsonl"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("GetSummary of a missing session: %v, want ErrNotFound", err)
	}
}

// TestCorruptAfterOpen damages the file under an open store: queries fail
// with ErrCorrupt and say what to do.
func TestCorruptAfterOpen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sift.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFakes(t, s, []fake{{wi: "wi", file: "a"}})
	s.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Overwrite every page after the first with junk.
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	f.WriteAt([]byte(strings.Repeat("\xde\xad\xbe\xef", int(st.Size()-4096)/4)), 4096)
	f.Close()
	_, err = pageRows(s.ListSessions(context.Background(), review.Query{}))
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "sift rebuild") {
		t.Fatalf("query of a damaged file: %v, want ErrCorrupt with what to do", err)
	}
}

// TestOpenKeepsPageSize opens a database created with SQLite's default page
// size: it keeps that size and works.
func TestOpenKeepsPageSize(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sift.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE old (x)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var size int
	if err := s.r.QueryRow("PRAGMA page_size").Scan(&size); err != nil || size != 4096 {
		t.Fatalf("page_size = %d, %v; want the file's 4096", size, err)
	}
	var ckpt int
	if err := s.w.QueryRow("PRAGMA wal_autocheckpoint").Scan(&ckpt); err != nil || ckpt != walCheckpointBytes/4096 {
		t.Fatalf("wal_autocheckpoint = %d, %v; want %d pages of 4 KiB", ckpt, err, walCheckpointBytes/4096)
	}
	mustImport(t, s, fixtures)
	if n, err := s.CountSessions(context.Background(), review.Query{}); err != nil || n == 0 {
		t.Fatalf("%d sessions, %v", n, err)
	}
}
