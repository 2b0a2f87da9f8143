package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/cmd/sift/internal/corpus"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// writeToolCallStream writes a generated claude stream of calls tool calls
// to logs/<workItem>/<name> and returns its path.
func writeToolCallStream(t *testing.T, logs, workItem, name string, calls int) string {
	t.Helper()
	p := filepath.Join(logs, workItem, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = corpus.ToolCallStream(f, corpus.ToolCallSpec{Calls: calls, Seed: uint64(calls)})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestListJSONLeavesOutPerCallLists checks the list contract of issue #12:
// `sift list --json` rows carry a session's counts but not its toolCalls,
// stalls and turns, which grow with the session (50 rows of a many-call
// store printed 316 MB); --full adds them.
func TestListJSONLeavesOutPerCallLists(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, logs := filepath.Join(dir, "sift.db"), filepath.Join(dir, "logs")
	const calls = 3000
	writeToolCallStream(t, logs, "wi-1", "work-1-a1b2c3.jsonl", calls)
	writeToolCallStream(t, logs, "wi-2", "work-1-d4e5f6.jsonl", calls)
	cfg := filepath.Join(dir, "config.yaml") // no user configuration
	if err := os.WriteFile(cfg, []byte("Enabled: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := siftCmd(t, "import", "--db", db, "--logs", logs, "--config", cfg); code != 0 {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}

	list := func(args ...string) (string, []map[string]json.RawMessage) {
		t.Helper()
		out, errOut, code := siftCmd(t, append([]string{"list", "--db", db, "--config", cfg, "--json"}, args...)...)
		var rows []map[string]json.RawMessage
		if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 2 {
			t.Fatalf("list --json %v: %d %.300q %q", args, code, out, errOut)
		}
		return out, rows
	}
	brief, rows := list()
	for _, r := range rows {
		for _, k := range []string{"toolCalls", "stalls", "turns"} {
			if _, ok := r[k]; ok {
				t.Errorf("list --json row has %q", k)
			}
		}
		if string(r["toolCallCount"]) != "3000" {
			t.Errorf("list --json toolCallCount = %s, want %d", r["toolCallCount"], calls)
		}
	}
	// The brief rows do not grow with the calls: a few KB each.
	if len(brief) > 2*8<<10 {
		t.Errorf("list --json of 2 sessions of %d calls printed %d bytes", calls, len(brief))
	}

	full, rows := list("--full")
	for _, r := range rows {
		var tcs, turns []json.RawMessage
		if json.Unmarshal(r["toolCalls"], &tcs) != nil || len(tcs) != calls {
			t.Errorf("list --json --full: %d tool calls, want %d", len(tcs), calls)
		}
		if json.Unmarshal(r["turns"], &turns) != nil || len(turns) == 0 {
			t.Errorf("list --json --full: no turns")
		}
		if _, ok := r["stalls"]; !ok {
			t.Errorf("list --json --full row has no stalls")
		}
	}
	if len(full) < 100*len(brief) {
		t.Errorf("list --json --full printed %d bytes, list --json %d", len(full), len(brief))
	}

	if _, errOut, code := siftCmd(t, "list", "--db", db, "--config", cfg, "--full"); code == 0 || !strings.Contains(errOut, "--full needs --json") {
		t.Errorf("list --full without --json: %d %q", code, errOut)
	}
}

// TestWriteRowsJSON: the rows are written one at a time, as the Encoder
// writes the whole slice.
func TestWriteRowsJSON(t *testing.T) {
	t.Parallel()
	msg := "<b>&\u001b[31m"
	two := 2
	decided := review.Decision{Kind: review.Reviewed, Note: "<ok>", Reviewer: "ana"}
	for _, rows := range [][]review.Session{nil, {{Summary: summary.Summary{WorkItemID: "wi"}}}, {
		{Summary: summary.Summary{WorkItemID: "wi-1", FileName: "a.jsonl", Iteration: &two, FinalAssistantMessage: &msg, Tail: []string{"x"}},
			Decision: &decided, Decisions: []review.Decision{{Kind: review.NeedsFollowup, TurnID: "t1"}}},
		{Summary: summary.Summary{WorkItemID: "wi-2", ToolCalls: []summary.ToolCall{{ID: "c1", Name: "Bash"}}, Turns: []summary.Turn{}, Stalls: []summary.Stall{}}},
	}} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if rows == nil {
			enc.Encode([]review.Session{})
		} else {
			enc.Encode(rows)
		}
		var got bytes.Buffer
		if err := writeRowsJSON(&got, rows); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("rows written one at a time:\n%s\nwant\n%s", got.String(), want.String())
		}
	}
}
