package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/store"
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

// fuzzGet fetches a route and fails unless the server answered 200 with
// the content type; an error body must be one line of JSON.
func fuzzGet(t testing.TB, c *http.Client, url, contentType string) []byte {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != contentType {
		t.Fatalf("GET %s: %d %s: %s", url, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	return body
}

// FuzzHandlers serves mutated real streams, each as a new capture file of
// its own work item, from a real store: the summary (analysed on demand,
// then stored by an import), the raw stream, the work item's file list
// (with line counts) and the session list each answer 200 with what the
// file holds, and the session stored before the fuzzed files is served
// unchanged.
func FuzzHandlers(f *testing.F) {
	addStreamSeeds(f, func(b []byte) { f.Add(b) })
	f.Add([]byte(orphanParentStream))
	dir := f.TempDir()
	logs := filepath.Join(dir, "logs")
	st, err := store.Open(filepath.Join(dir, "sift.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	good, err := os.ReadFile(filepath.Join(fixtures, "claude", "evolve-2.1.7-run1-write-file.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(logs, "wi-good"), 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(logs, "wi-good", "work-1-000001.jsonl"), good, 0o644); err != nil {
		f.Fatal(err)
	}
	if _, err := ingest.Import(context.Background(), st, []string{logs}, ingest.Options{Workers: 1, KeepEvents: retention.Policy{}.KeepsEvents}, nil); err != nil {
		f.Fatal(err)
	}
	api, err := New(Options{Store: st, LogsDir: logs, Loopback: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { api.Close() })
	srv := httptest.NewServer(api)
	f.Cleanup(srv.Close)
	c := srv.Client()
	goodURL := srv.URL + "/workitems/wi-good/agent-streams/work-1-000001.jsonl/summary"
	goodSum := string(fuzzGet(f, c, goodURL, "application/json"))
	n := 0
	f.Fuzz(func(t *testing.T, data []byte) {
		n++
		wi := fmt.Sprintf("wi-%d", n)
		if err := os.MkdirAll(filepath.Join(logs, wi), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(logs, wi, "work-1-abcdef.jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		base := srv.URL + "/workitems/" + wi + "/agent-streams"
		var sum summary.Summary
		if err := json.Unmarshal(fuzzGet(t, c, base+"/work-1-abcdef.jsonl/summary", "application/json"), &sum); err != nil {
			t.Fatal(err)
		}
		if sum.ByteCount != int64(len(data)) || sum.WorkItemID != wi {
			t.Fatalf("summary of %s: %d bytes of %d", sum.WorkItemID, sum.ByteCount, len(data))
		}
		if raw := fuzzGet(t, c, base+"/work-1-abcdef.jsonl", "application/x-ndjson"); !bytes.Equal(raw, data) {
			t.Fatalf("raw stream: %d bytes served of %d", len(raw), len(data))
		}
		var files streamList
		if err := json.Unmarshal(fuzzGet(t, c, base+"?includeLineCount=true", "application/json"), &files); err != nil {
			t.Fatal(err)
		}
		if len(files.Files) != 1 || files.Files[0].Size != int64(len(data)) || files.Files[0].LineCount == nil ||
			*files.Files[0].LineCount != sum.LineCount {
			t.Fatalf("file list %+v, summary has %d lines", files, sum.LineCount)
		}
		if res, err := ingest.Import(context.Background(), st, []string{filepath.Join(logs, wi)}, ingest.Options{Workers: 1, KeepEvents: retention.Policy{}.KeepsEvents}, nil); err != nil {
			t.Fatalf("import: %v", err)
		} else if binary := bytes.IndexByte(data[:min(len(data), 4096)], 0) >= 0; len(res.Failed) > 0 && !binary {
			t.Fatalf("import: %v", res.Failed)
		}
		var list sessionList
		if err := json.Unmarshal(fuzzGet(t, c, srv.URL+"/sessions?full=true&workItem="+wi, "application/json"), &list); err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(data[:min(len(data), 4096)], 0) < 0 && len(list.Sessions) != 1 {
			t.Fatalf("sessions of %s: %+v", wi, list.Sessions)
		}
		fuzzGet(t, c, srv.URL+"/sessions", "application/json")
		if got := string(fuzzGet(t, c, goodURL, "application/json")); got != goodSum {
			t.Fatalf("the stored session changed:\n got %s\nwant %s", got, goodSum)
		}
		if err := os.RemoveAll(filepath.Join(logs, wi)); err != nil {
			t.Fatal(err)
		}
	})
}
