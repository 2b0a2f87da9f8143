package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sift runs one command in-process with an isolated configuration.
func siftCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func TestStoreCommands(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config")) // no user configuration
	db := filepath.Join(dir, "sift.db")
	logs := filepath.Join(dir, "logs")
	src, err := os.ReadFile("../../testdata/streams/claude/vincent-2.1.226-permission-denied-tool-error.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"work-1-a1b2c3.jsonl", "audit-llm-security:llm-review-2-d4e5f6.jsonl"} {
		os.MkdirAll(filepath.Join(logs, "wi-1"), 0o755)
		if err := os.WriteFile(filepath.Join(logs, "wi-1", name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	out, errOut, code := siftCmd(t, "import", "--db", db, "--logs", logs)
	if code != 0 || strings.Contains(errOut, "\r") {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	line := regexp.MustCompile(`^2 files, 2 sessions, [0-9.]+ MB in \S+ \([0-9.]+ MB/s\), 0 skipped, 0 failed\n$`)
	if !line.MatchString(out) {
		t.Fatalf("import closing line %q", out)
	}
	if out, _, _ := siftCmd(t, "import", "--db", db, "--logs", logs); !strings.Contains(out, "2 skipped") {
		t.Fatalf("re-import: %q", out)
	}

	out, errOut, code = siftCmd(t, "list", "--db", db, "--json", "--sort", "cost")
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 2 {
		t.Fatalf("list --json: %d %q %q", code, out, errOut)
	}
	if _, hasCalls := rows[0]["toolCalls"]; rows[0]["workItemId"] != "wi-1" || hasCalls || rows[0]["decision"] != nil {
		t.Fatalf("list row %v", rows[0])
	}

	out, errOut, code = siftCmd(t, "decide", "--db", db, "audit", "--decision", "needs_followup", "--note", "check the denial", "--reviewer", "ana")
	if code != 0 || !strings.Contains(out, "recorded needs_followup on wi-1/audit-llm-security:llm-review-2-d4e5f6.jsonl by ana") {
		t.Fatalf("decide: %d %q %q", code, out, errOut)
	}
	if _, errOut, code = siftCmd(t, "decide", "--db", db, "wi-1/nope.jsonl", "--decision", "reviewed"); code == 0 || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("decide on a missing session: %d %q", code, errOut)
	}
	if _, errOut, code = siftCmd(t, "decide", "--db", db, "work", "--decision", "lgtm"); code == 0 || !strings.Contains(errOut, "lgtm") {
		t.Fatalf("decide with a bad decision: %d %q", code, errOut)
	}

	out, _, code = siftCmd(t, "list", "--db", db, "--flagged")
	if code != 0 || !strings.Contains(out, "needs_followup") || !strings.HasPrefix(out, "SESSION") {
		t.Fatalf("list --flagged: %q", out)
	}
	out, _, _ = siftCmd(t, "list", "--db", db, "--undecided", "--json")
	if !strings.Contains(out, "work-1-a1b2c3.jsonl") || strings.Contains(out, "audit-llm") {
		t.Fatalf("list --undecided: %q", out)
	}
	if _, errOut, code = siftCmd(t, "list", "--db", db, "--sort", "vibes"); code == 0 || !strings.Contains(errOut, "vibes") {
		t.Fatalf("list --sort vibes: %d %q", code, errOut)
	}

	if out, _, _ = siftCmd(t, "sweep", "--db", db, "--logs", logs, "--status"); !strings.HasPrefix(out, "last sweep: never\nlast successful sweep: never\nlogs: 2 files, 0.0 MB in "+logs+"; keep 14 days, cap 2048 MB\n") {
		t.Fatalf("sweep --status: %q", out)
	}
	if out, errOut, code = siftCmd(t, "sweep", "--db", db, "--logs", logs); code != 0 || !strings.HasPrefix(out, "swept 0 files") {
		t.Fatalf("sweep: %d %q %q", code, out, errOut)
	}
	if out, _, _ = siftCmd(t, "sweep", "--db", db, "--logs", logs, "--status"); !strings.HasPrefix(out, "last sweep: 20") ||
		!strings.Contains(out, "by sift sweep: removed 0 files, 0 sessions, review events of 0 sessions; 0 idle work items in ") ||
		!strings.Contains(out, "\nlast successful sweep: 20") {
		t.Fatalf("sweep --status after a sweep: %q", out)
	}

	if out, _, code = siftCmd(t, "workitem", "--db", db, "retry", "wi-1"); code != 0 {
		t.Fatalf("workitem retry: %q", out)
	}
	if out, _, _ = siftCmd(t, "list", "--db", db); strings.Count(out, "\n") != 1 {
		t.Fatalf("list after retry shows sessions: %q", out)
	}
	if out, errOut, code = siftCmd(t, "workitem", "--db", db, "--logs", logs, "done", "wi-1"); code != 0 || !strings.Contains(out, "2 sessions") {
		t.Fatalf("workitem done: %d %q %q", code, out, errOut)
	}
	if out, errOut, code = siftCmd(t, "rebuild", "--db", db, "--logs", logs); code != 0 || !strings.Contains(out, "2 sessions") {
		t.Fatalf("rebuild: %d %q %q", code, out, errOut)
	}
	if out, _, _ = siftCmd(t, "list", "--db", db, "--flagged"); !strings.Contains(out, "needs_followup") {
		t.Fatalf("decision lost by retry or rebuild: %q", out)
	}

	// A corrupt database is one line naming the file and what to do.
	bad := filepath.Join(dir, "bad.db")
	os.WriteFile(bad, bytes.Repeat([]byte("not a database "), 100), 0o644)
	_, errOut, code = siftCmd(t, "list", "--db", bad)
	if code == 0 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, bad) || !strings.Contains(errOut, "sift rebuild") {
		t.Fatalf("corrupt db: %d %q", code, errOut)
	}
}
