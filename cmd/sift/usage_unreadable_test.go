package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageLeavesOutAnUnreadableRow: in a shared database, one session
// whose stored summary (brief_json) does not decode, written by another
// program (a control sequence in its name, too), no longer stops `sift
// usage`: the totals count every other session, and one line on stderr
// names the session left out and why, inert. The old `sift usage` exited
// with "session totals: decode summary".
func TestUsageLeavesOutAnUnreadableRow(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sift.db")
	if code, _, errs := runSift(t, "import", "--db", db, "../../testdata/streams/claude"); code != 0 {
		t.Fatalf("import: %q", errs)
	}
	perSession, all := inboxTokens(t, db)
	before := usageJSON(t, db)
	if before.Totals.TotalTokens != all || len(perSession) < 2 {
		t.Fatalf("before: usage %d tokens, the inbox %d over %d sessions", before.Totals.TotalTokens, all, len(perSession))
	}
	raw, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	// The session left out: the first by name that counts tokens (the
	// inbox's: input and output).
	var wi, file string
	var tokens int64
	err = raw.QueryRow(`SELECT work_item_id, file_name, COALESCE(input_tokens, 0) + COALESCE(output_tokens, 0)
		FROM agent_stream_summaries WHERE total_tokens > 0 ORDER BY file_name LIMIT 1`).Scan(&wi, &file, &tokens)
	if err != nil || tokens == 0 {
		t.Fatal(tokens, err)
	}
	const renamed = "evil\x1b]0;pwned\x07.jsonl"
	if _, err := raw.Exec(`UPDATE agent_stream_summaries SET brief_json = '{"inputTokens":"many"', file_name = ?
		WHERE work_item_id = ? AND file_name = ?`, renamed, wi, file); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	code, out, errs := runSift(t, "usage", "--json", "--timezone", "UTC", "--db", db)
	if code != 0 || out == "" {
		t.Fatalf("usage: exit %d, %q", code, errs)
	}
	if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "sift usage: warning: left out 1 session whose stored row cannot be read: ") ||
		!strings.Contains(errs, wi+`/evil\x1b]0;pwned\x07.jsonl (decode summary: `) || strings.ContainsAny(errs, "\x1b\x07") {
		t.Errorf("stderr: %q; want one inert line naming the session and why", errs)
	}
	after := usageJSON(t, db)
	if want := all - tokens; after.Totals.TotalTokens != want {
		t.Errorf("after: %d tokens, want all %d but the session left out (%d)", after.Totals.TotalTokens, all, tokens)
	}
}
