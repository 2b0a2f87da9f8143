package agentstest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// Testdata is core/agents' own test material: the event goldens
// (events/), the accounting samples (accounting/) and the history lines
// built after the CLIs' sources (history-built/).
var Testdata = filepath.Join(Root, "core", "agents", "testdata")

// HistoryDir holds the repository's real history recordings, one folder
// per harness.
var HistoryDir = filepath.Join(Root, "testdata", "history")

// BuiltDir holds history lines built after the CLIs' sources (see its
// README); real recordings, when present, are in HistoryDir.
var BuiltDir = filepath.Join(Testdata, "history-built")

// MustRead reads a file or fails the test.
func MustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ParseAll parses the file at path through the registry and returns its
// events and stats.
func ParseAll(t testing.TB, path string, opt agents.Options) ([]*event.Event, agents.Stats) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []*event.Event
	st, err := agents.Default().Parse(f, opt, func(ev *event.Event) { evs = append(evs, ev) })
	if err != nil {
		t.Fatal(err)
	}
	return evs, st
}

// CompareGolden compares got with the golden file at path (go test
// -update rewrites it).
func CompareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("%s differs at event %d:\n got: %.400s\nwant: %.400s", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: got %d events, want %d", path, len(gl), len(wl))
	}
}

// HistoryFiles lists the files of one history format: the built ones and
// any real recording.
func HistoryFiles(t testing.TB, agent string) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{BuiltDir, HistoryDir} {
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

// CheckHistoryFile sniffs and parses a history file, checks that no line
// is raw or lost, and compares the events with their golden.
func CheckHistoryFile(t *testing.T, f string, want agents.Kind) []*event.Event {
	t.Helper()
	evs, st := ParseAll(t, f, agents.Options{})
	if agents.Kind(st.Agent) != want {
		t.Fatalf("sniffed %s, want %s", st.Agent, want)
	}
	AssertEveryLine(t, f, MustRead(t, f), evs, st)
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
	CompareGolden(t, filepath.Join(Testdata, "events", "history", string(want.Harness()),
		strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))+".jsonl"), buf.Bytes())
	return evs
}

// RecordedHistories holds real recorded histories, one folder per harness
// laid out as under the user's home (PROVENANCE.md in each).
var RecordedHistories = filepath.Join(Root, "testdata", "histories")

// RecordedFiles lists a harness's recorded session files matching a
// pattern under its folder.
func RecordedFiles(t testing.TB, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(RecordedHistories, pattern))
	if err != nil || len(m) == 0 {
		t.Fatalf("no recorded files %s (%v)", pattern, err)
	}
	return m
}
