package summary

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const streamsDir = "../../testdata/streams"

// fixtures lists every recorded stream: its agent folder and path.
func fixtures(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(streamsDir, "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && !strings.HasSuffix(p, ".md") {
			out = append(out, p)
		}
	}
	if len(out) < 30 {
		t.Fatalf("found %d fixtures under %s, want the whole set", len(out), streamsDir)
	}
	return out
}

// folderAgent is the agent a fixture was captured from, as the capture
// would declare it: the name of its folder (codex-legacy is codex).
func folderAgent(path string) agents.Kind {
	k := agents.Kind(filepath.Base(filepath.Dir(path)))
	if k == "codex-legacy" {
		return agents.Codex
	}
	return k
}

// goldenName is the golden file of a fixture: <agent>-<name>.
func goldenName(path string) string {
	agent := filepath.Base(filepath.Dir(path))
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return agent + "-" + name
}

// TestGoldenSummaries summarizes every fixture in testdata/streams and
// compares the summary and review events with their goldens
// (testdata/<agent>-<name>.golden.json and .review.golden.json), parsed
// as the agent of its folder, as a capture would declare it.
// Regenerate with `go test ./core/summary -run TestGolden -update`.
func TestGoldenSummaries(t *testing.T) {
	t.Parallel()
	for _, path := range fixtures(t) {
		t.Run(goldenName(path), func(t *testing.T) {
			t.Parallel()
			s, rev, err := AnalyzeFile(path, Options{Agent: string(folderAgent(path))})
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, goldenName(path)+".golden.json", printed(s))
			checkGolden(t, goldenName(path)+".review.golden.json", rev)
		})
	}
}

// TestGoldenProjected pins a timestamp-less stream projected onto a known
// invocation window, by line and by byte offset.
func TestGoldenProjected(t *testing.T) {
	t.Parallel()
	path := filepath.Join(streamsDir, "codex", "evolve-run2-resumed-todo-commands.jsonl")
	opt := Options{Start: t0, End: at(95)}
	for _, tc := range []struct {
		name string
		proj Projection
	}{{"line", ProjectByLine}, {"offset", ProjectByOffset}} {
		opt.Projection = tc.proj
		opt.Agent = string(agents.Codex)
		s, _, err := AnalyzeFile(path, opt)
		if err != nil {
			t.Fatal(err)
		}
		if s.TotalDurationMs == nil || *s.TotalDurationMs != 95_000 || s.ExecutingMs == nil || s.TimeToFirstTokenMs == nil {
			t.Errorf("%s: projection left timing empty: %+v", tc.name, s)
		}
		checkGolden(t, "projected-by-"+tc.name+"-"+goldenName(path)+".golden.json", printed(s))
	}
}

// printed is a summary as `sift summary --json` prints it, the form the
// goldens hold: a review session's JSON (core/review) ends the summary's
// fields with the session's decision, null for a file's summary. The
// summary itself knows no decisions.
func printed(s *Summary) any {
	return struct {
		*Summary
		Decision *struct{} `json:"decision"`
	}{Summary: s}
}

func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("%s differs from the golden; got:\n%s", path, firstDiff(buf.String(), string(want)))
	}
}

// firstDiff shows the first differing line with a little context.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + itoa(int64(i+1)) + ":\n  got:  " + gl + "\n  want: " + wl
		}
	}
	return ""
}
