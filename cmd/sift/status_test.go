package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatusShowsCoverage: `sift status` says what the imports of the logs
// folder and of the history folders found, imported, skipped as unchanged
// and could not read (the first failure named), and what retention
// removed, with when each last ran.
func TestStatusShowsCoverage(t *testing.T) {
	w := newRetentionWorld(t)
	bad := filepath.Join(w.logs, "wi-9", "work-1-ffffff.jsonl")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("\x00\x01binary"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, code := w.sift("import"); code != 1 {
		t.Fatalf("import of a binary file: exit %d, want 1", code)
	}
	w.sweep("--retained-days", "0")
	out, errOut, code := w.sift("status")
	if code != 0 {
		t.Fatalf("status: %d %q", code, errOut)
	}
	for _, want := range []string{
		"store " + w.db + ": 3 sessions\n",
		"logs folder " + w.logs + ": 2 stream files (",
		" on disk; last import 0s ago: 2 files found, 0 imported, 1 unchanged, 1 unparseable (first: " + bad + ": binary file, not an agent stream)\n",
		"history folders: last import 0s ago: 1 file found, 1 imported, 0 unchanged, 0 unparseable\n",
		"history claude: " + os.Getenv("CLAUDE_CONFIG_DIR") + "/projects: 1 session stored\n",
		"paths: last import 0s ago: 1 file found, 1 imported, 0 unchanged, 0 unparseable\n",
		"retention: last sweep 0s ago by sift sweep removed 0 files, 0 sessions, review events of 0 sessions\n",
		"removed by retention since ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
}
