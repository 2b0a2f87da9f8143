package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/summary"
)

// seedBytes caps a fuzz seed: the fuzzer mutates small inputs better, and a
// stream's first lines are where its harness shows.
const seedBytes = 16 << 10

// addStreamSeeds adds every recorded stream and agent history of the
// repository (all harnesses) as seeds, each cut to its first lines.
func addStreamSeeds(f *testing.F, add func([]byte)) {
	f.Helper()
	var paths []string
	for _, pat := range []string{"streams/*/*", "history/*/*"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "testdata", pat))
		if err != nil {
			f.Fatal(err)
		}
		paths = append(paths, m...)
	}
	n := 0
	for _, p := range paths {
		if filepath.Ext(p) == ".md" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > seedBytes {
			if i := bytes.LastIndexByte(data[:seedBytes], '\n'); i > 0 {
				data = data[:i+1]
			} else {
				data = data[:seedBytes]
			}
		}
		add(data)
		n++
	}
	if n < 40 {
		f.Fatalf("only %d seed streams found", n)
	}
}

// FuzzParseCommand runs `sift parse`, `sift parse --stats` and `sift
// summary --json` on mutated real streams of every harness: each exits 0
// with nothing on stderr, every line parse prints is one event of the
// file, and the counts agree with the file.
func FuzzParseCommand(f *testing.F) {
	addStreamSeeds(f, func(b []byte) { f.Add(b) })
	f.Add([]byte(orphanParentStream))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "work-1-abcdef.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		lines := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			lines++
		}
		code, out, errs := runSift(t, "parse", path)
		if code != 0 || errs != "" {
			t.Fatalf("parse: exit %d, stderr %q", code, errs)
		}
		sc := bufio.NewScanner(strings.NewReader(out))
		sc.Buffer(nil, 1<<30)
		for sc.Scan() {
			var ev event.Event
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Fatalf("parse printed %.200q: %v", sc.Text(), err)
			}
			if ev.Line < 1 || ev.Line > lines {
				t.Fatalf("event at line %d of %d", ev.Line, lines)
			}
		}
		code, out, errs = runSift(t, "parse", "--stats", path)
		if want := fmt.Sprintf("lines\t%d\nbytes\t%d\n", lines, len(data)); code != 0 || errs != "" || !strings.Contains(out, want) {
			t.Fatalf("parse --stats: exit %d, stderr %q, stdout %q", code, errs, out)
		}
		code, out, errs = runSift(t, "summary", "--json", path)
		var s summary.Summary
		if code != 0 || errs != "" || json.Unmarshal([]byte(out), &s) != nil || s.LineCount != lines {
			t.Fatalf("summary: exit %d, stderr %q, stdout %.300q", code, errs, out)
		}
	})
}
