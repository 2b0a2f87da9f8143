// Package agentstest holds what the tests of the harnesses' folders share:
// the recorded streams of the repository, parses of them through the
// registered harnesses (a test package imports core/agents/all for them)
// and the parser invariants fuzz tests check. It is test code: no product
// package imports it.
package agentstest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/internal/testfiles"
	"github.com/agentsift/sift/core/event"
)

// Root is the repository's folder (testfiles.Root).
var Root = testfiles.Root

// StreamsDir holds the real streams, one folder per harness.
var StreamsDir = filepath.Join(Root, "testdata", "streams")

// EventsOf parses text as a stream of the declared kind and returns its
// events.
func EventsOf(t testing.TB, k agents.Kind, text string) []*event.Event {
	t.Helper()
	var evs []*event.Event
	if _, err := agents.Default().Parse(strings.NewReader(text), agents.Options{Agent: k}, func(e *event.Event) {
		evs = append(evs, e)
	}); err != nil {
		t.Fatalf("parse: %v", err)
	}
	return evs
}

// StreamFixture reads one file of testdata/streams.
func StreamFixture(t testing.TB, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(StreamsDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// OfKind returns the events of one update kind.
func OfKind(evs []*event.Event, k event.Kind) []*event.Event {
	var out []*event.Event
	for _, e := range evs {
		if e.Update.SessionUpdate == k {
			out = append(out, e)
		}
	}
	return out
}

// FuzzParser checks the parser invariants on arbitrary input: no panic,
// every non-blank line yields at least one event, and every event points
// at a line of the input.
func FuzzParser(f *testing.F, k agents.Kind, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		seen := map[int]bool{}
		st, err := agents.Default().Parse(strings.NewReader(in), agents.Options{Agent: k}, func(e *event.Event) {
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
			if len(agents.StripPrefix([]byte(line))) > 0 && !seen[i+1] {
				t.Fatalf("line %d %q yielded no event", i+1, line)
			}
		}
	})
}

// FixtureSeeds returns every fixture of one harness as fuzz seeds.
func FixtureSeeds(f *testing.F, dir string) []string {
	paths, err := filepath.Glob(filepath.Join(StreamsDir, dir, "*"))
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

// ParseBytes parses data through the registry and returns its events and
// stats.
func ParseBytes(t testing.TB, data []byte, opt agents.Options) ([]*event.Event, agents.Stats) {
	t.Helper()
	var evs []*event.Event
	st, err := agents.Default().Parse(bytes.NewReader(data), opt, func(ev *event.Event) { evs = append(evs, ev) })
	if err != nil {
		t.Fatal(err)
	}
	return evs, st
}

// AssertEveryLine checks that every event points at a real line and that
// each non-blank line of data produced an event, except the lines the
// parser read as quiet markers (counted in Stats.QuietLines; a parser that
// defers an event may stamp it with a quiet line, hence at most).
func AssertEveryLine(t *testing.T, name string, data []byte, evs []*event.Event, st agents.Stats) {
	t.Helper()
	seen := map[int]bool{}
	for _, ev := range evs {
		if ev.Line < 1 || ev.Line > st.Lines {
			t.Fatalf("%s: event at line %d of %d", name, ev.Line, st.Lines)
		}
		seen[ev.Line] = true
	}
	var silent []int
	for i, l := range bytes.Split(data, []byte("\n")) {
		if len(agents.StripPrefix(l)) > 0 && !seen[i+1] {
			silent = append(silent, i+1)
		}
	}
	if len(silent) > st.QuietLines {
		t.Fatalf("%s: lines %v yielded no event, but only %d were read as quiet markers", name, silent, st.QuietLines)
	}
}

// Kinds returns the update kind of each event.
func Kinds(evs []*event.Event) []event.Kind {
	ks := make([]event.Kind, len(evs))
	for i, ev := range evs {
		ks[i] = ev.Update.SessionUpdate
	}
	return ks
}

// EqualKinds reports whether a and b hold the same kinds in order.
func EqualKinds(a, b []event.Kind) bool {
	return slices.Equal(a, b)
}

// AddFileSeeds adds each line of each file as a fuzz seed, and each whole
// file too when whole is set.
var AddFileSeeds = testfiles.AddFileSeeds

// AddSeeds adds each render and each of its lines.
func AddSeeds(f *testing.F, renders [][]byte) {
	for _, r := range renders {
		f.Add(r)
		start := 0
		for i, c := range r {
			if c == '\n' {
				f.Add(r[start:i])
				start = i + 1
			}
		}
	}
}

// FuzzEveryLine fuzzes the parse of a stream declared as each of kinds: it
// never fails or panics and emits an event for every line with text.
func FuzzEveryLine(f *testing.F, kinds ...agents.Kind) {
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, k := range kinds {
			evs, st := ParseBytes(t, data, agents.Options{Agent: k})
			AssertEveryLine(t, string(k), data, evs, st)
		}
	})
}
