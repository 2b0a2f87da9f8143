package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentsift/sift/core/review"
)

// TestWhyGoldens draws, at the three sizes, the session of a codex run
// that died of a network failure (recorded: five reconnects, then the
// request failed for good; Codex's model-metadata warning first), headlined
// by its fatal error, the warning only listed below with the stream's
// errors; and the session of a `sift run`
// capture whose claude stream carries no prompt, its prompt row showing
// what sift run passed.
func TestWhyGoldens(t *testing.T) {
	network := analyzeFixture(t, fixture{workItem: "ENG-501", name: "work-1-0a0b0c.jsonl",
		src: "codex/ortus-0.144.6-stubmodel-reconnect-turn-failed.jsonl"})
	captured := analyzeFixture(t, fixture{workItem: "ENG-502", name: "work-1-0d0e0f.jsonl",
		src: "claude/evolve-2.1.7-run1-write-file.jsonl"})
	captured.RunArgs = []string{"-p", "write hello to output/helloworld.txt", "--model", "opus"}
	for _, sc := range []struct {
		name string
		s    review.Session
		want []string
		not  string
	}{
		{"codex-network-failure", network, []string{"We're currently experiencing high demand"}, "Model metadata"},
		{"run-prompt-row", captured, []string{"sift run passed: -p 'write hello"}, ""},
	} {
		for _, size := range goldenSizes() {
			t.Run(fmt.Sprintf("%s/%dx%d", sc.name, size[0], size[1]), func(t *testing.T) {
				m := newTestApp(t, size[0], size[1], NewMemStore([]review.Session{sc.s}))
				press(t, m, m.c.Keys.Enter)
				if !m.session.showAll {
					press(t, m, m.c.Keys.AllTurns)
				}
				checkFrame(t, m, size[0], size[1])
				got := screenText(m)
				for _, w := range sc.want {
					if !strings.Contains(got, w[:15]) {
						t.Errorf("the session does not show %q:\n%s", w, got)
					}
				}
				// The warning may be listed with the stream's errors, never
				// before the fatal one: the headline is the fatal error.
				if i := strings.Index(got, sc.not); sc.not != "" && i >= 0 && i < strings.Index(got, sc.want[0][:15]) {
					t.Errorf("%q shows before the fatal error:\n%s", sc.not, got)
				}
				golden.RequireEqual(t, got)
			})
		}
	}
}
