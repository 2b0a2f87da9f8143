package agents

import (
	"bytes"
	"encoding/json"
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

// builtDir holds history lines built after the CLIs' sources (see its
// README); real recordings, when present, are in historyDir.
const builtDir = "testdata/history-built"

// historyFiles lists the files of one history format: the built ones and
// any real recording.
func historyFiles(t testing.TB, agent string) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{builtDir, historyDir} {
		for _, pat := range []string{"*.jsonl", "*.json"} {
			m, _ := filepath.Glob(filepath.Join(dir, agent, pat))
			out = append(out, m...)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s history files", agent)
	}
	return out
}

// checkHistoryFile sniffs and parses a history file, checks that no line
// is raw or lost, and compares the events with their golden.
func checkHistoryFile(t *testing.T, f string, want Kind) []*event.Event {
	t.Helper()
	evs, st := parseAll(t, f, Options{})
	if Kind(st.Agent) != want {
		t.Fatalf("sniffed %s, want %s", st.Agent, want)
	}
	assertEveryLine(t, f, mustRead(t, f), evs, st)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, ev := range evs {
		if ev.Update.SessionUpdate == event.Raw {
			t.Errorf("line %d kept as raw: %.120s", ev.Line, ev.Update.Text)
		}
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	compareGolden(t, filepath.Join("testdata", "events", "history", string(want.Harness()),
		strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))+".jsonl"), buf.Bytes())
	return evs
}

// usageSum adds the per-call usage of events.
func usageSum(evs []*event.Event) (calls int, prompt, cached, output int64) {
	for _, ev := range evs {
		u := ev.Update
		if u.SessionUpdate != event.Usage || u.Scope != event.ScopeCall {
			continue
		}
		calls++
		if u.PromptTokens != nil {
			prompt += *u.PromptTokens
		}
		if u.CachedTokens != nil {
			cached += *u.CachedTokens
		}
		if u.CompletionTokens != nil {
			output += *u.CompletionTokens
		}
	}
	return
}
