package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// searchDemo imports the demo's streams into a fresh database and returns
// the flags that open it.
func searchDemo(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml") // no user configuration
	if err := os.WriteFile(cfg, []byte("Enabled: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--db", filepath.Join(dir, "sift.db"), "--config", cfg}
	if out, errOut, code := siftCmd(t, append([]string{"import", filepath.Join("demo", "streams")}, flags...)...); code != 0 {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	return flags
}

// TestSearchCommand runs `sift search` on the demo: one line per match
// with the match marked, exclusions and filters as words, JSON, limits
// and errors.
func TestSearchCommand(t *testing.T) {
	t.Parallel()
	flags := searchDemo(t)
	search := func(args ...string) (string, string, int) {
		t.Helper()
		return siftCmd(t, append(append([]string{"search"}, args...), flags...)...)
	}
	out, errOut, code := search("approval")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) < 3 || !strings.HasPrefix(lines[0], "SESSION  ") || !strings.Contains(out, "«approval»") {
		t.Fatalf("search approval: %d %q\n%s", code, errOut, out)
	}
	for _, l := range lines[1:] {
		if !strings.Contains(l, "«approval»") {
			t.Errorf("a line without its match marked: %q", l)
		}
	}
	// An exclusion is a word, not a flag; filters narrow.
	out, _, code = search("approval", "-agent:claude", "--limit", "20")
	if code != 0 || strings.Contains(out, "ENG-412/") || !strings.Contains(out, "ENG-398/rework-1-9a8b7c.jsonl") {
		t.Errorf("search approval -agent:claude:\n%s", out)
	}
	out, _, _ = search("approval", "--limit", "1")
	if n := strings.Count(strings.TrimSpace(out), "\n"); n != 1 {
		t.Errorf("--limit 1 printed %d matches:\n%s", n, out)
	}
	out, _, code = search("--json", "agent:gemini")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || code != 0 || len(rows) != 3 {
		t.Fatalf("search --json agent:gemini: %d rows, %v\n%s", len(rows), err, out)
	}
	for _, r := range rows {
		if r["agentKind"] != "gemini" || r["where"] != "session" {
			t.Errorf("row %v", r)
		}
	}
	if out, _, code := search("zebra"); code != 0 || out != "no matches\n" {
		t.Errorf("no match: %d %q, want \"no matches\"", code, out)
	}
	// A malformed query is one line naming its part, column and problem,
	// and a failure; read as nothing, each listed every session.
	for _, bad := range [][]string{{`"`}, {"(((("}, {"-"}, {"approval", "-"}} {
		out, errOut, code := search(bad...)
		col := len(strings.Join(bad, " ")) - len(bad[len(bad)-1]) + 1 // the last part is at fault
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 ||
			!strings.HasPrefix(errOut, "sift search: ") || !strings.Contains(errOut, fmt.Sprintf("at column %d: ", col)) {
			t.Errorf("search %q: %d %q %q; want one line naming column %d", bad, code, out, errOut, col)
		}
	}
	for _, bad := range [][]string{{}, {"since:soon"}, {"x", "--sort", "nope"}} {
		if _, errOut, code := search(bad...); code != 2 || !strings.HasPrefix(errOut, "sift search: ") {
			t.Errorf("search %q: %d %q", bad, code, errOut)
		}
	}
}

// TestHelpSearch: `sift help search` prints the query language; help
// names one command's usage.
func TestHelpSearch(t *testing.T) {
	t.Parallel()
	out, _, code := siftCmd(t, "help", "search")
	for _, want := range []string{"usage: sift search", `"npm test"`, "agent:codex", "cost>0.5", "since:24h", "outcome:failed", "reviewer:"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("help search lacks %q:\n%s", want, out)
		}
	}
	if out, _, code := siftCmd(t, "help", "list"); code != 0 || !strings.HasPrefix(out, "usage: sift list") {
		t.Errorf("help list: %d %q", code, out)
	}
	if _, errOut, code := siftCmd(t, "help", "nope"); code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("help nope: %d %q", code, errOut)
	}
	if out, _, _ := siftCmd(t, "help"); !strings.Contains(out, "sift search QUERY") {
		t.Errorf("help does not list search:\n%s", out)
	}
}
