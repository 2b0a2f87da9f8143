package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenConfirm draws the dialog `e` shows before it opens a file
// outside the run's folder, or of a run whose folder is unknown: the whole
// absolute path, where the run worked, and the answer keys.
func TestGoldenConfirm(t *testing.T) {
	const target = "/etc/passwd"
	if real, err := filepath.EvalSymlinks(target); err != nil || real != target {
		t.Skipf("%s is not a plain file here", target)
	}
	cases := []struct{ name, cwd string }{
		{"outside", "/srv/project"},
		{"unknown", ""},
	}
	for _, tc := range cases {
		for _, size := range goldenSizes() {
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, size[0], size[1]), func(t *testing.T) {
				t.Setenv("EDITOR", "vi")
				m := openReadCall(t, readSession(t, target, tc.cwd))
				send(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				if execs := pressExec(t, m, m.c.Keys.Editor); len(execs) != 0 || m.confirm == nil {
					t.Fatalf("e did not ask: %d programs, status %q", len(execs), m.status)
				}
				checkFrame(t, m, size[0], size[1])
				golden.RequireEqual(t, screenText(m))
			})
		}
	}
}

// TestConfirmPathKeepsItsEnds: a path longer than the dialog has rows for
// keeps its first and last lines, so the file name always shows.
func TestConfirmPathKeepsItsEnds(t *testing.T) {
	p := "/" + strings.Repeat("d/", 40) + "name.go"
	got := pathLines(p, 10, 5)
	if len(got) != 5 || got[2] != "…" || !strings.HasPrefix(got[0], "/d/d/") || !strings.HasSuffix(got[4], "name.go") {
		t.Errorf("long path lines %q", got)
	}
	if got := pathLines("/a/b.go", 10, 5); !slices.Equal(got, []string{"/a/b.go"}) {
		t.Errorf("short path lines %q", got)
	}
}
