package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// importMorning places recorded streams in a logs folder, as a night of
// runs would leave them, and imports them into a new store with a
// configuration that keeps review data: a droid run that failed, two
// flagged claude runs ($0.10 and $0.02), two that completed unflagged.
func importMorning(t *testing.T, bin, logs, db, cfg string) {
	t.Helper()
	for _, r := range []struct{ wi, src string }{
		{"WI-A", "droid/vibekanban-insufficient-perms.jsonl"},
		{"WI-B", "claude/vincent-2.1.226-permission-denied-tool-error.jsonl"},
		{"WI-C", "claude/claude-orchestrator-task-subagent-reserialized.jsonl"},
		{"WI-D", "claude/evolve-2.1.5-skill-bash-read-image.jsonl"},
		{"WI-E", "qwen/evolve-0.7.0-run2-resumed.jsonl"},
	} {
		b, err := os.ReadFile(filepath.Join("../../testdata/streams", r.src))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(logs, r.wi)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "work-1-"+strings.Repeat(strings.ToLower(r.wi[3:]), 6)+".jsonl"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	importKept(t, bin, logs, db, cfg)
}

// TestMorningInTmux is issue 29's morning, on the real binary in a
// terminal of 80x24 and of 120x36: the inbox opens with the failed run
// first; deciding it moves the cursor to the next run left to review and
// the title's count drops by one; ] switches to the next tab, which the
// tab bar shows; ? shows the help whole (its box's four corners on the
// screen, so nothing is cut at the bottom or the side).
func TestMorningInTmux(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 36}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tm, _, _ := startInTmuxAt(t, size[0], size[1], func(bin, dir string) string {
				logs := filepath.Join(dir, "logs")
				db, cfg := filepath.Join(dir, "sift.db"), filepath.Join(dir, "config.yaml")
				importMorning(t, bin, logs, db, cfg)
				return bin + " --db " + db + " --config " + cfg + " --logs " + logs + " --reviewer e2e"
			})
			s := tm.waitFor("inbox", "5 sessions · 3 to review", "[all 5]", "sort: triage")
			if got := cursorRow(s); !strings.Contains(got, "WI-A · work-1") || !strings.Contains(got, "failed") {
				t.Fatalf("the first row is not the failed run: %q\n%s", got, s)
			}
			tm.keys("d")
			tm.waitFor("decision dialog", "r/n/i or ←/→ choose")
			tm.keys("r")
			tm.keys("Enter")
			s = tm.waitFor("decided", "reviewed WI-A · work-1", "5 sessions · 2 to review")
			if got := cursorRow(s); !strings.Contains(got, "WI-C · work-1") {
				t.Fatalf("after the decision the cursor is not on the next run to review (WI-C): %q\n%s", got, s)
			}
			tm.keys("]")
			s = tm.waitFor("to review tab", "[to review 2]", "2 sessions · 2 to review")
			if strings.Contains(s, "droid") {
				t.Errorf("the to review tab lists the decided droid run:\n%s", s)
			}
			tm.keys("?")
			s = tm.waitFor("help", "keys · inbox", "0 triage:")
			lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
			top, bottom := -1, -1
			for i, l := range lines {
				if strings.Contains(l, "╭") && strings.Contains(l, "╮") {
					top = i
				}
				if strings.Contains(l, "╰") && strings.Contains(l, "╯") {
					bottom = i
				}
			}
			if top < 0 || bottom < top || bottom >= size[1] {
				t.Fatalf("the help box is not whole on a %dx%d screen (top %d, bottom %d):\n%s", size[0], size[1], top, bottom, s)
			}
			tm.keys("?")
			tm.waitFor("help closed", "[to review 2]")
			tm.quit("sift")
		})
	}
}

// cursorRow is the inbox row the cursor is on.
func cursorRow(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "▶") {
			return l
		}
	}
	return ""
}
