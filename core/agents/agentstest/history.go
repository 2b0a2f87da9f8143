package agentstest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/internal/testfiles"
	"github.com/agentsift/sift/core/event"
)

// The repository's files, as testfiles finds them: see there.
var (
	// Testdata is core/agents' own test material.
	Testdata = testfiles.Testdata
	// HistoryDir holds the real history recordings, one folder per
	// harness.
	HistoryDir = testfiles.HistoryDir
	// BuiltDir holds history lines built after the CLIs' sources.
	BuiltDir = testfiles.BuiltDir
	// MustRead reads a file or fails the test.
	MustRead = testfiles.MustRead
	// CompareGolden compares got with a golden file (-update rewrites it).
	CompareGolden = testfiles.CompareGolden
	// HistoryFiles lists the files of one history format.
	HistoryFiles = testfiles.HistoryFiles
)

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
