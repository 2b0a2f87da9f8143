package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
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
		m, err := filepath.Glob(filepath.Join(fixtures, "..", pat))
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

// FuzzImport imports mutated real streams, each as a new capture file,
// into one real store, and reads each back: the import never fails as a
// whole, a file is either stored or listed as a failure with a one-line
// reason (only a binary file may fail), what was stored is listed and
// read back whole, and every session stored before, a real stream and the
// earlier fuzzed files alike, is still there unchanged.
func FuzzImport(f *testing.F) {
	addStreamSeeds(f, func(b []byte) { f.Add(b) })
	ctx := context.Background()
	dir := f.TempDir()
	s, err := Open(filepath.Join(dir, "sift.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	logs := filepath.Join(dir, "logs")
	copyFile(f, filepath.Join(fixtures, "claude", "evolve-2.1.7-run1-write-file.jsonl"), filepath.Join(logs, "wi-good", "work-1-000001.jsonl"))
	if res, err := ingest.Import(ctx, s, []string{logs}, tiered(ingest.Options{Workers: 1}), nil); err != nil || res.Sessions != 1 {
		f.Fatalf("import the good stream: %+v, %v", res, err)
	}
	goodJSON := func(tb testing.TB) string {
		tb.Helper()
		sum, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi-good", FileName: "work-1-000001.jsonl"})
		if err != nil {
			tb.Fatal(err)
		}
		b, _ := json.Marshal(sum)
		return string(b)
	}
	good := goodJSON(f)
	stored, n := 1, 0
	f.Fuzz(func(t *testing.T, data []byte) {
		n++
		wi := fmt.Sprintf("wi-%d", n)
		path := filepath.Join(logs, wi, "work-1-abcdef.jsonl")
		writeFile(t, path, data)
		res, err := ingest.Import(ctx, s, []string{path}, tiered(ingest.Options{Workers: 1}), nil)
		if err != nil {
			t.Fatalf("import: %v", err)
		}
		for _, fl := range res.Failed {
			if strings.ContainsAny(fl.String(), "\r\n") {
				t.Errorf("failure is not one line: %q", fl.String())
			}
		}
		binary := bytes.IndexByte(data[:min(len(data), 4096)], 0) >= 0
		switch {
		case binary && (len(res.Failed) != 1 || res.Sessions != 0):
			t.Fatalf("binary file: %+v", res)
		case binary:
		case len(res.Failed) != 0 || res.Sessions != 1:
			t.Fatalf("import result %+v", res)
		default:
			stored++
			sum, err := s.GetSession(ctx, review.SessionKey{WorkItemID: wi, FileName: "work-1-abcdef.jsonl"})
			if err != nil {
				t.Fatal(err)
			}
			if sum.ByteCount != int64(len(data)) || sum.ToolCallCount != len(sum.ToolCalls) {
				t.Fatalf("read back %d bytes, %d of %d calls", sum.ByteCount, len(sum.ToolCalls), sum.ToolCallCount)
			}
			list, err := pageRows(s.ListSessions(ctx, review.Query{WorkItem: wi, Full: true}))
			if err != nil || len(list) != 1 || list[0].FileName != "work-1-abcdef.jsonl" {
				t.Fatalf("list: %v, %+v", err, list)
			}
			if _, err := s.ReviewEvents(ctx, review.SessionKey{WorkItemID: wi, FileName: "work-1-abcdef.jsonl"}); err != nil {
				t.Fatal(err)
			}
		}
		if got := goodJSON(t); got != good {
			t.Fatalf("the stored session changed:\n got %s\nwant %s", got, good)
		}
		if c, err := s.CountSessions(ctx, review.Query{}); err != nil || c != stored {
			t.Fatalf("%d sessions stored, want %d (%v)", c, stored, err)
		}
		if err := os.RemoveAll(filepath.Dir(path)); err != nil {
			t.Fatal(err)
		}
	})
}
