package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/summary"
)

// missedSecret stands for a secret an older sift's rules let through: the
// test writes it into the rows directly, as that sift would have.
var missedSecret = "ghp_" + strings.Repeat("R8kWq2Zt5N", 4)[:36]

// findText scans every column of every table for s, in the stored bytes
// and, for packed values, in their JSON; it returns where it was found.
func findText(t *testing.T, s *Store, needle string) []string {
	t.Helper()
	ctx := context.Background()
	tables := tableNames(t, s)
	var found []string
	for _, tbl := range tables {
		rows, err := s.r.QueryContext(ctx, `SELECT * FROM "`+tbl+`"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				var b []byte
				switch v := v.(type) {
				case string:
					b = []byte(v)
				case []byte:
					b = v
				}
				if j, err := unpackJSON(b); err == nil {
					b = append(b, j...)
				}
				if bytes.Contains(b, []byte(needle)) {
					found = append(found, tbl+"."+cols[i])
				}
			}
		}
		rows.Close()
	}
	return found
}

// inFiles reports whether the database file or its WAL holds s.
// indexedWords counts the words of the search index that are words of
// needle (the index keeps them lowercased, and prefix-compressed in its
// pages: no byte search finds them).
func indexedWords(t *testing.T, s *Store, needle string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := s.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	vocab := `SELECT COUNT(*) FROM temp.search_vocab WHERE term = ?`
	if onPG(s) {
		vocab = `SELECT COUNT(*) FROM search_fts, unnest(words) AS u WHERE u.lexeme = ?`
	} else if _, err := conn.ExecContext(ctx, `CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, search_fts, row)`); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range search.Words(needle) {
		var c int
		if err := conn.QueryRowContext(ctx, vocab, w).Scan(&c); err != nil {
			t.Fatal(err)
		}
		if len(w) > 6 {
			n += c
		}
	}
	return n
}

func inFiles(t *testing.T, s *Store, needle string) bool {
	t.Helper()
	for _, f := range []string{s.Path(), s.Path() + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(needle)) {
			return true
		}
	}
	return false
}

// plant writes the secret into every kind of stored text, directly.
func plant(t *testing.T, s *Store, key review.SessionKey) {
	t.Helper()
	ctx := context.Background()
	turns, err := encodePacked([]summary.Turn{{TurnID: "t1", Text: strings.Repeat("thinking ", 80) + "export GH=" + missedSecret}}, "[]")
	if err != nil {
		t.Fatal(err)
	}
	events, err := encodePacked([]summary.ReviewEvent{{Type: summary.ReviewPrompt, Actor: "user",
		Summary: strings.Repeat("please ", 100) + "use " + missedSecret, Line: 1}}, "[]")
	if err != nil {
		t.Fatal(err)
	}
	if turns[0] != 0 || events[0] != 0 {
		t.Fatal("the planted turns and events are not packed")
	}
	calls, _ := json.Marshal([]summary.ToolCall{{ID: "toolu_1", Name: "Bash", InputSummary: "curl -H 'x: " + missedSecret + "'"}})
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE agent_stream_summaries SET final_assistant_message = ?, brief_json = ` + s.d.jsonSetText("brief_json", "finalAssistantMessage", "?") + `,
			tool_calls_json = ?, stalls_json = ?, turns_json = ?, model = ? WHERE work_item_id = ? AND file_name = ?`,
			[]any{"done, token " + missedSecret, "done, token " + missedSecret, calls,
				`[{"gapMs":1,"kind":"llm","note":"` + missedSecret + `"}]`, turns, "m " + missedSecret, key.WorkItemID, key.FileName}},
		{`UPDATE review_events SET events_json = ? WHERE work_item_id = ? AND file_name = ?`, []any{events, key.WorkItemID, key.FileName}},
		{`UPDATE session_filter SET tool_names = ? WHERE work_item_id = ? AND file_name = ?`,
			[]any{`["Bash","` + missedSecret + `"]`, key.WorkItemID, key.FileName}},
		{`INSERT INTO usage_files (path, work_item_id, file_name, agent_kind, session_id, models, entry_count, entries)
			VALUES ('/h/x.jsonl', 'p', 'x.jsonl', 'claude', 'sess', ?, 0, ?)`, []any{"claude-opus\n" + missedSecret, []byte{}}},
		{`INSERT INTO review_decisions (work_item_id, file_name, decision, note, created_at) VALUES (?, ?, 'needs_followup', ?, ?)`,
			[]any{key.WorkItemID, key.FileName, "pasted " + missedSecret + " by mistake", time.Now().UnixMilli() + 1000}},
		{plantInSearchSQL(s), []any{" token " + missedSecret, key.WorkItemID, key.FileName}},
	} {
		if _, err := s.w.ExecContext(ctx, q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
}

func TestReapplyRedaction(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	for _, f := range fixtureFiles(t)[:8] {
		copyFile(t, f, filepath.Join(root, filepath.Base(filepath.Dir(f)), filepath.Base(f)))
	}
	mustImport(t, s, root)
	rows, err := pageRows(s.ListSessions(ctx, review.Query{}))
	if err != nil {
		t.Fatal(err)
	}
	key := review.SessionKey{WorkItemID: rows[0].WorkItemID, FileName: rows[0].FileName}
	if err := s.Decide(ctx, review.Decision{Session: key, Kind: review.Reviewed, Note: "fine"}); err != nil {
		t.Fatal(err)
	}
	plant(t, s, key)
	if n := indexedWords(t, s, missedSecret); n == 0 {
		t.Fatal("the planted secret is not in the search index")
	}
	if where := findText(t, s, missedSecret); len(where) < 10 {
		t.Fatalf("the secret was planted in %v only", where)
	}
	// The old rows are in the database file itself, not only in its WAL.
	// (A PostgreSQL server's files are not the test's to read.)
	if _, err := s.sqliteExec(ctx, s.w, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	if !onPG(s) && !inFiles(t, s, missedSecret) {
		t.Fatal("the planted secret is not in the database's bytes")
	}

	counts, err := s.ReapplyRedaction(ctx, testRedactor)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"agent_stream_summaries": 6, "review_events": 1, "session_filter": 1, "usage_files": 1, "review_decisions": 1,
		"search_fts": 1, "search_text": 1}
	for _, c := range counts {
		if c.Values != want[c.Table] {
			t.Errorf("%s: %d values changed, want %d", c.Table, c.Values, want[c.Table])
		}
	}
	if where := findText(t, s, missedSecret); len(where) != 0 {
		t.Fatalf("the secret is still stored in %v", where)
	}
	if n := indexedWords(t, s, missedSecret); n != 0 {
		t.Fatalf("the search index still has %d words of the secret", n)
	}
	// Nor is it left in free space or in the WAL.
	if !onPG(s) && inFiles(t, s, missedSecret) {
		t.Error("the secret is still in the bytes of the database or its WAL")
	}
	// What was rewritten still reads, with the marker.
	sum, err := s.GetSession(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(*sum.FinalAssistantMessage, "[REDACTED:github-token]") || !strings.Contains(sum.Turns[0].Text, "[REDACTED:") ||
		!strings.Contains(sum.ToolCalls[0].InputSummary, "[REDACTED:") {
		t.Fatalf("rewritten summary: %q %q %q", *sum.FinalAssistantMessage, sum.Turns[0].Text, sum.ToolCalls[0].InputSummary)
	}
	evs, err := s.ReviewEvents(ctx, key)
	if err != nil || len(evs) != 1 || !strings.Contains(evs[0].Summary, "[REDACTED:github-token]") {
		t.Fatalf("rewritten review events: %+v %v", evs, err)
	}
	hist, _ := s.Decisions(ctx, key)
	if len(hist) != 2 || hist[1].Note != "pasted [REDACTED:github-token] by mistake" || hist[0].Note != "fine" {
		t.Fatalf("decision notes after reapply: %+v", hist)
	}

	// A second run changes nothing.
	again, err := s.ReapplyRedaction(ctx, testRedactor)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range again {
		if c.Values != 0 || c.Rows != 0 {
			t.Errorf("second run changed %d values of %s", c.Values, c.Table)
		}
	}
	// Decisions are still append-only for everyone else.
	if _, err := s.w.ExecContext(ctx, `UPDATE review_decisions SET note = 'x'`); err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Fatalf("an ordinary update of a decision: %v", err)
	}
}

func TestReapplyRedactionLeavesCleanStoreAlone(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	root := t.TempDir()
	for _, f := range fixtureFiles(t) {
		copyFile(t, f, filepath.Join(root, filepath.Base(filepath.Dir(f)), filepath.Base(f)))
	}
	mustImport(t, s, root)
	counts, err := s.ReapplyRedaction(context.Background(), testRedactor)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range counts {
		if c.Values != 0 {
			t.Errorf("%s: %d values changed in a store imported with today's rules", c.Table, c.Values)
		}
	}
}

// BenchmarkReapplyRedaction measures a reapply over a store of the
// fixtures imported ten times (nothing left to change: the cost of the
// scan itself).
func BenchmarkReapplyRedaction(b *testing.B) {
	s := newTestStore(b)
	root := b.TempDir()
	var size int64
	for i := range 10 {
		for _, f := range fixtureFiles(b) {
			dst := filepath.Join(root, filepath.Base(filepath.Dir(f))+strings.Repeat("x", i), filepath.Base(f))
			copyFile(b, f, dst)
			if fi, err := os.Stat(dst); err == nil {
				size += fi.Size()
			}
		}
	}
	mustImport(b, s, root)
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.ReapplyRedaction(context.Background(), testRedactor); err != nil {
			b.Fatal(err)
		}
	}
}
