package tui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestGolden draws each screen in both views at 80×24 and 120×40 on the
// fixture inbox and compares the frames (without colour) to the goldens.
func TestGolden(t *testing.T) {
	sessions := fixtureSessions(t)
	screens := []struct {
		name string
		open func(t *testing.T, m *App)
	}{
		{"inbox", func(*testing.T, *App) {}},
		{"session", func(t *testing.T, m *App) {
			k := m.c.Keys
			press(t, m, k.SortCost, k.Enter)
		}},
		{"toolcall", func(t *testing.T, m *App) {
			k := m.c.Keys
			press(t, m, k.SortCost, k.Enter, k.Enter, k.Enter)
		}},
		{"toolcall-denied", func(t *testing.T, m *App) {
			// The triage order's first session has a call denied
			// permission; enter on its turn selects that call.
			k := m.c.Keys
			press(t, m, k.Enter, k.Enter, k.Enter)
		}},
		{"help", func(t *testing.T, m *App) { press(t, m, m.c.Keys.Help) }},
		{"decide", func(t *testing.T, m *App) {
			press(t, m, m.c.Keys.Decide)
			typeText(t, m, "looks fine")
		}},
	}
	for _, sc := range screens {
		for _, mode := range []Mode{Developer, Operator} {
			for _, size := range [][2]int{{80, 24}, {120, 40}} {
				name := fmt.Sprintf("%s/%s/%dx%d", sc.name, mode, size[0], size[1])
				t.Run(name, func(t *testing.T) {
					m := newTestApp(t, size[0], size[1], NewMemStore(sessions))
					if mode == Operator {
						press(t, m, m.c.Keys.View)
						send(t, m, clearStatusMsg{seq: m.statusSeq})
					}
					sc.open(t, m)
					checkFrame(t, m, size[0], size[1])
					golden.RequireEqual(t, screenText(m))
				})
			}
		}
	}
}
