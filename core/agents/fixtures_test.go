package agents

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents/internal/testfiles"
	"github.com/agentsift/sift/core/event"
)

// streamsDir holds the real streams, one folder per harness.
const streamsDir = "../../testdata/streams"

// fixture is one real stream file.
type fixture struct {
	dir, name, path string
}

// declared is the agent kind a fixture's folder stands for.
func (f fixture) declared() Kind {
	switch f.dir {
	case "codex-legacy":
		return Codex
	}
	return Kind(f.dir)
}

func fixtures(t testing.TB) []fixture {
	t.Helper()
	var fs []fixture
	dirs, err := os.ReadDir(streamsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(streamsDir, d.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			fs = append(fs, fixture{d.Name(), f.Name(), filepath.Join(streamsDir, d.Name(), f.Name())})
		}
	}
	if len(fs) < 30 {
		t.Fatalf("found %d fixtures, want the whole set", len(fs))
	}
	return fs
}

// allowedRaw lists the lines of a fixture that truly carry no known shape,
// with the reason. Every other line must parse into typed events.
var allowedRaw = map[string]map[int]string{
	"claude/claude-orchestrator-task-subagent-reserialized.jsonl": {1: "system/hook_response: hook output, no event kind"},
}

// sniffed pins what the sniffer says of every fixture with no declared
// agent. Cursor's stream is Claude-shaped and is attributed to claude unless
// declared; copilot's is plaintext.
var sniffed = map[string]Kind{
	"claude":       Claude,
	"codex":        Codex,
	"codex-legacy": Codex,
	"copilot":      Unknown,
	"cursor":       Claude,
	"droid":        Droid,
	"gemini":       Gemini,
	"opencode":     OpenCode,
	"qwen":         Qwen,
}

func parseAll(t testing.TB, path string, opt Options) ([]*event.Event, Stats) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []*event.Event
	st, err := Default().Parse(f, opt, func(ev *event.Event) { evs = append(evs, ev) })
	if err != nil {
		t.Fatal(err)
	}
	return evs, st
}

// TestFixtures parses every real stream with its declared agent and
// compares the events with a golden file.
func TestFixtures(t *testing.T) {
	for _, fx := range fixtures(t) {
		t.Run(fx.dir+"/"+fx.name, func(t *testing.T) {
			if _, err := Default().Lookup(fx.declared()); err != nil {
				t.Skipf("no parser for %s yet", fx.declared())
			}
			evs, st := parseAll(t, fx.path, Options{Agent: fx.declared()})
			if Kind(st.Agent) != fx.declared() {
				t.Errorf("agent = %s, want %s", st.Agent, fx.declared())
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			for _, ev := range evs {
				if ev.Line < 1 || ev.Line > st.Lines {
					t.Errorf("event %s has line %d, stream has %d", ev.Update.SessionUpdate, ev.Line, st.Lines)
				}
				if ev.Update.SessionUpdate == event.Raw {
					if _, ok := allowedRaw[fx.dir+"/"+fx.name][ev.Line]; !ok {
						t.Errorf("line %d kept as raw: %.120s", ev.Line, ev.Update.Text)
					}
				}
				if err := enc.Encode(ev); err != nil {
					t.Fatal(err)
				}
			}
			golden := filepath.Join("testdata", "events", fx.dir, strings.TrimSuffix(fx.name, filepath.Ext(fx.name))+".jsonl")
			testfiles.CompareGolden(t, golden, buf.Bytes())
		})
	}
}

// TestSniff pins the sniffer's verdict on every fixture.
func TestSniff(t *testing.T) {
	for _, fx := range fixtures(t) {
		t.Run(fx.dir+"/"+fx.name, func(t *testing.T) {
			want, ok := sniffed[fx.dir]
			if !ok {
				t.Fatalf("no pinned sniff outcome for folder %s", fx.dir)
			}
			if _, err := Default().Lookup(want); err != nil {
				t.Skipf("no parser for %s yet", want)
			}
			_, st := parseAll(t, fx.path, Options{})
			if Kind(st.Agent) != want {
				t.Errorf("sniffed %s, want %s", st.Agent, want)
			}
		})
	}
}

// TestEveryLineYieldsAnEvent checks, for every fixture and every parser,
// that each non-blank line is accounted for by at least one event.
func TestEveryLineYieldsAnEvent(t *testing.T) {
	for _, fx := range fixtures(t) {
		for _, k := range Default().Kinds() {
			evs, st := parseAll(t, fx.path, Options{Agent: k})
			assertEveryLine(t, fx.dir+"/"+fx.name+" as "+string(k), testfiles.MustRead(t, fx.path), evs, st)
		}
	}
}

// assertEveryLine checks that every event points at a real line and that
// each non-blank line of data produced an event, except the lines the
// parser read as quiet markers (counted in Stats.QuietLines; a parser that
// defers an event may stamp it with a quiet line, hence at most).
func assertEveryLine(t *testing.T, name string, data []byte, evs []*event.Event, st Stats) {
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
		if len(StripPrefix(l)) > 0 && !seen[i+1] {
			silent = append(silent, i+1)
		}
	}
	if len(silent) > st.QuietLines {
		t.Fatalf("%s: lines %v yielded no event, but only %d were read as quiet markers", name, silent, st.QuietLines)
	}
}
