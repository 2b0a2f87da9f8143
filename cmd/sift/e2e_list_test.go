package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestListFitsTheTerminalInTmux runs sift list on a real 120-column
// terminal and into a pipe: on the terminal every line fits (tmux joins
// what it wrapped: -J), piped the table is whole, wider (issue 29, item
// 9: sift list ignored the terminal's width).
func TestListFitsTheTerminalInTmux(t *testing.T) {
	var piped string
	tm, _, _ := startInTmux(t, func(bin, dir string) string {
		db, cfg := filepath.Join(dir, "sift.db"), filepath.Join(dir, "config.yaml")
		if err := os.WriteFile(cfg, []byte("Enabled: true\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, "import", "--db", db, "--config", cfg, filepath.Join("demo", "streams")).CombinedOutput(); err != nil {
			t.Fatalf("import: %v\n%s", err, out)
		}
		piped = filepath.Join(dir, "piped.txt")
		list := bin + " list --limit 0 --db " + db + " --config " + cfg
		return "unset COLUMNS; " + list + "; " + list + " | cat >" + piped + "; echo LISTED"
	})
	tm.waitFor("the lists", "LISTED")
	joined := tm.run("capture-pane", "-p", "-J", "-t", tm.name)
	var rows int
	for _, l := range strings.Split(joined, "\n") {
		if w := ansi.StringWidth(l); w > 120 {
			t.Errorf("a line of %d cells on a 120-column terminal: %q", w, l)
		}
		if strings.HasPrefix(l, "ENG-") {
			rows++
		}
	}
	if rows < 10 || !strings.Contains(joined, "SESSION ") {
		t.Fatalf("%d rows on the terminal:\n%s", rows, joined)
	}
	var whole []byte
	for deadline := time.Now().Add(10 * time.Second); len(whole) == 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		whole, _ = os.ReadFile(piped)
	}
	widest := 0
	for _, l := range strings.Split(string(whole), "\n") {
		widest = max(widest, ansi.StringWidth(l))
	}
	if widest <= 120 || !strings.Contains(string(whole), "APPROVALS") {
		t.Errorf("piped, the widest line is %d cells:\n%s", widest, whole)
	}
}
