package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// The stream helpers of this package's tests; the harnesses' folders have
// them from core/agents/agentstest.

// eventsOf parses text as a stream of the declared kind and returns its
// events.
func eventsOf(t testing.TB, k Kind, text string) []*event.Event {
	t.Helper()
	var evs []*event.Event
	if _, err := Default().Parse(strings.NewReader(text), Options{Agent: k}, func(e *event.Event) {
		evs = append(evs, e)
	}); err != nil {
		t.Fatalf("parse: %v", err)
	}
	return evs
}

// streamFixture reads one file of testdata/streams.
func streamFixture(t testing.TB, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "streams", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ofKind returns the events of one update kind.
func ofKind(evs []*event.Event, k event.Kind) []*event.Event {
	var out []*event.Event
	for _, e := range evs {
		if e.Update.SessionUpdate == k {
			out = append(out, e)
		}
	}
	return out
}

// fuzzParser checks the parser invariants on arbitrary input: no panic,
// every non-blank line yields at least one event, and every event points
// at a line of the input.
func fuzzParser(f *testing.F, k Kind, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		seen := map[int]bool{}
		st, err := Default().Parse(strings.NewReader(in), Options{Agent: k}, func(e *event.Event) {
			seen[e.Line] = true
		})
		if err != nil {
			t.Fatal(err)
		}
		for l := range seen {
			if l < 1 || l > st.Lines {
				t.Fatalf("event on line %d of %d", l, st.Lines)
			}
		}
		for i, line := range strings.Split(in, "\n") {
			if len(StripPrefix([]byte(line))) > 0 && !seen[i+1] {
				t.Fatalf("line %d %q yielded no event", i+1, line)
			}
		}
	})
}

// fixtureSeeds returns every fixture of one harness as fuzz seeds.
func fixtureSeeds(f *testing.F, dir string) []string {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "streams", dir, "*"))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no fixtures in %s: %v", dir, err)
	}
	var seeds []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, string(b))
	}
	return seeds
}
