// Package testfiles is what the harness tests need of the repository's
// files and nothing of the harnesses: where the recorded material lies,
// the golden comparison and its -update flag, and fuzz seeds from files.
// Both core/agents' own tests and agentstest (the harness folders' tests)
// use it: core/agents' tests cannot import agentstest, which imports
// core/agents.
package testfiles

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Update is the -update flag: rewrite the golden files.
var Update = flag.Bool("update", false, "rewrite the golden files")

// Root is the repository's folder, found from the test's working folder
// (a package's own folder under `go test`).
var Root = func() string {
	dir, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			panic("testfiles: no go.mod above " + dir)
		}
	}
}()

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

// CompareGolden compares got with the golden file at path (go test
// -update rewrites it).
func CompareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *Update {
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

// AddFileSeeds adds each line of each file as a fuzz seed, and each whole
// file too when whole is set.
func AddFileSeeds(f *testing.F, whole bool, paths ...string) {
	f.Helper()
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if whole {
			f.Add(data)
		}
		for _, l := range strings.Split(string(data), "\n") {
			f.Add([]byte(l))
		}
	}
}
