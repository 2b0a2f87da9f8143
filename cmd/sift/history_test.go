package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/usage"
)

// Claude config folder and reads `sift usage` back, as table and JSON.
func TestImportHistoryAndUsageCommands(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "claude")
	src, err := os.ReadFile("../../testdata/history/claude/spotter-2.1.38-short-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(cfg, "projects", "-home-marco-projects-spotter")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "s.jsonl"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", cfg)
	t.Setenv("CODEX_HOME", filepath.Join(dir, "none"))
	t.Setenv("GEMINI_DIR", filepath.Join(dir, "none"))
	db := filepath.Join(dir, "sift.db")
	t.Setenv("HOME", filepath.Join(dir, "home"))
	code, out, errs := runSift(t, "import", "--history", "--db", db)
	if want := "claude: " + filepath.Join(cfg, "projects") + ": 1 sessions found, 1 imported, 0 unchanged, 0 failed\n1 files, 1 sessions"; code != 0 || !strings.HasPrefix(out, want) {
		t.Fatalf("import: exit %d, %q, %q; want %q first", code, out, errs, want)
	}
	if code, _, errs := runSift(t, "import", "--history", "somewhere", "--db", db); code != 2 || !strings.Contains(errs, "--history takes no paths") {
		t.Fatalf("import --history PATH: exit %d, %q", code, errs)
	}
	code, out, errs = runSift(t, "usage", "--json", "--by", "project", "--db", db)
	if code != 0 {
		t.Fatalf("usage: exit %d, %q", code, errs)
	}
	var rep usage.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 1 || rep.Rows[0].Key != "-home-marco-projects-spotter" || rep.Totals.Calls == 0 ||
		rep.Totals.OutputTokens == 0 {
		t.Fatalf("usage by project: %+v", rep)
	}
	code, out, _ = runSift(t, "usage", "--since", "20260210", "--db", db)
	if code != 0 || !strings.Contains(out, "2026-02-10") || !strings.Contains(out, "total") {
		t.Fatalf("usage table: exit %d\n%s", code, out)
	}
	if code, _, errs := runSift(t, "usage", "--since", "yesterday", "--db", db); code != 2 || strings.Count(errs, "\n") != 1 {
		t.Fatalf("bad --since: exit %d, %q", code, errs)
	}
	if code, _, errs := runSift(t, "usage", "--by", "year", "--db", db); code != 2 || !strings.Contains(errs, "unknown grouping") {
		t.Fatalf("bad --by: exit %d, %q", code, errs)
	}
}
