package httpapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/cmd/sift/internal/corpus"
)

// TestSessionListLeavesOutPerCallLists checks the list contract of issue
// #12 on the API: GET /sessions rows leave out toolCalls, stalls and turns,
// which grow with the session, unless full=true; the stream list of a work
// item carries nothing per call either.
func TestSessionListLeavesOutPerCallLists(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Loopback: true})
	const calls = 3000
	p := filepath.Join(e.logs, "wi-many", "work-1-0c0c0c.jsonl")
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	f, err := os.Create(p)
	must(t, err)
	_, err = corpus.ToolCallStream(f, corpus.ToolCallSpec{Calls: calls, Seed: 3})
	must(t, err)
	must(t, f.Close())
	e.importAll()

	rows := func(r reply) []map[string]json.RawMessage {
		t.Helper()
		return decode[struct {
			Sessions []map[string]json.RawMessage `json:"sessions"`
		}](t, r, 200).Sessions
	}
	brief := e.get("/sessions?workItem=wi-many")
	got := rows(brief)
	if len(got) != 1 || string(got[0]["toolCallCount"]) != "3000" {
		t.Fatalf("GET /sessions?workItem=wi-many = %.300s", brief.body)
	}
	for _, k := range []string{"toolCalls", "stalls", "turns"} {
		if _, ok := got[0][k]; ok {
			t.Errorf("GET /sessions row has %q", k)
		}
	}
	if len(brief.body) > 8<<10 {
		t.Errorf("GET /sessions of one session of %d calls is %d bytes", calls, len(brief.body))
	}

	full := e.get("/sessions?workItem=wi-many&full=true")
	got = rows(full)
	var tcs []json.RawMessage
	if len(got) != 1 || json.Unmarshal(got[0]["toolCalls"], &tcs) != nil || len(tcs) != calls {
		t.Fatalf("full=true: %d tool calls, want %d", len(tcs), calls)
	}
	for _, k := range []string{"stalls", "turns"} {
		if _, ok := got[0][k]; !ok {
			t.Errorf("full=true row has no %q", k)
		}
	}

	streams := e.get("/workitems/wi-many/agent-streams?includeLineCount=true")
	if len(streams.body) > 1<<10 {
		t.Errorf("GET /workitems/wi-many/agent-streams is %d bytes: %s", len(streams.body), streams.body)
	}
}
