package agents

import (
	"strings"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// TestEndsWithResultIsDeclared pins which harnesses declare that every
// finished stream of theirs ends with a result line (the summary calls a
// structured stream of theirs without one incomplete), and that the parse
// carries the declaration on its stats, sniffed or declared.
func TestEndsWithResultIsDeclared(t *testing.T) {
	t.Parallel()
	want := map[Kind]bool{Antigravity: true, Claude: true, Codex: true, Cursor: true, Gemini: true, Qwen: true}
	reg := Default()
	for _, k := range reg.Kinds() {
		p, err := reg.Lookup(k)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.EndsWithResult(); got != want[k] {
			t.Errorf("%s: EndsWithResult = %v, want %v", k, got, want[k])
		}
		st, err := reg.Parse(strings.NewReader("{}\n"), Options{Agent: k}, func(*event.Event) {})
		if err != nil {
			t.Fatal(err)
		}
		if st.EndsWithResult != want[k] || st.Agent != string(k) {
			t.Errorf("%s: stats say agent %q, EndsWithResult %v", k, st.Agent, st.EndsWithResult)
		}
	}
	sniffed, err := reg.Parse(strings.NewReader(streamFixture(t, "gemini/evolve-run2-resumed-four-tools.jsonl")), Options{}, func(*event.Event) {})
	if err != nil {
		t.Fatal(err)
	}
	if !sniffed.Sniffed || Kind(sniffed.Agent) != Gemini || !sniffed.EndsWithResult {
		t.Errorf("sniffed stats %+v", sniffed)
	}
	unknown, err := reg.Parse(strings.NewReader("plain text\n"), Options{}, func(*event.Event) {})
	if err != nil {
		t.Fatal(err)
	}
	if Kind(unknown.Agent) != Unknown || unknown.EndsWithResult {
		t.Errorf("unknown stats %+v", unknown)
	}
}
