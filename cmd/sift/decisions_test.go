package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecisionsExportImportRoundTrip exports the decisions of a real store
// (an undo among them), imports them into a fresh store twice, and checks
// that the second import adds nothing, that the two exports are the same,
// and that the new store's inbox shows the same decisions; a file with a
// bad line imports nothing and names the line.
func TestDecisionsExportImportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	logs := filepath.Join(dir, "logs")
	src, err := os.ReadFile("../../testdata/streams/claude/vincent-2.1.226-permission-denied-tool-error.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"work-1-a1b2c3.jsonl", "work-2-d4e5f6.jsonl"} {
		os.MkdirAll(filepath.Join(logs, "wi-1"), 0o755)
		if err := os.WriteFile(filepath.Join(logs, "wi-1", name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	for _, db := range []string{a, b} {
		if out, errOut, code := siftCmd(t, "import", "--db", db, logs); code != 0 {
			t.Fatalf("import: %q %q", out, errOut)
		}
	}
	for _, args := range [][]string{
		{"decide", "wi-1/work-1-a1b2c3.jsonl", "--decision", "needs_followup", "--note", "why \"denied\"?\nsee line 2", "--reviewer", "ana"},
		{"decide", "wi-1/work-2-d4e5f6.jsonl", "--decision", "ignored", "--reviewer", "bo"},
		{"decide", "wi-1/work-2-d4e5f6.jsonl", "--decision", "reviewed", "--reviewer", "bo"},
		{"decide", "wi-1/work-2-d4e5f6.jsonl", "--undo", "--reviewer", "bo"},
	} {
		if out, errOut, code := siftCmd(t, append(args, "--db", a)...); code != 0 {
			t.Fatalf("%v: %q %q", args, out, errOut)
		}
	}
	exported, errOut, code := siftCmd(t, "decisions", "export", "--db", a)
	if code != 0 || strings.Count(exported, "\n") != 4 || !strings.Contains(exported, `"decision":"undone"`) {
		t.Fatalf("export: %d %q %q", code, exported, errOut)
	}
	file := filepath.Join(dir, "decisions.jsonl")
	if err := os.WriteFile(file, []byte(exported), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := siftCmd(t, "decisions", "import", file, "--db", b); code != 0 || out != "imported 4 decisions, 0 already in the store\n" {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	if out, errOut, code := siftCmd(t, "decisions", "import", file, "--db", b); code != 0 || out != "imported 0 decisions, 4 already in the store\n" {
		t.Fatalf("import again: %d %q %q", code, out, errOut)
	}
	if again, _, _ := siftCmd(t, "decisions", "export", "--db", b); again != exported {
		t.Fatalf("the imported store exports\n%s\nnot\n%s", again, exported)
	}
	listA, _, _ := siftCmd(t, "list", "--json", "--db", a)
	listB, _, _ := siftCmd(t, "list", "--json", "--db", b)
	if listA != listB || !strings.Contains(listB, `"decision": "ignored"`) {
		t.Fatalf("the inboxes differ:\n%s\n%s", listA, listB)
	}
	if out, _, _ := siftCmd(t, "decisions", "export", "--since", "1h", "--db", b); out != exported {
		t.Fatalf("export --since 1h: %q", out)
	}
	if out, _, _ := siftCmd(t, "decisions", "export", "--since", "2999-01-01", "--db", b); out != "" {
		t.Fatalf("export --since 2999-01-01: %q", out)
	}

	bad := filepath.Join(dir, "bad.jsonl")
	lines := strings.SplitAfter(exported, "\n")
	os.WriteFile(bad, []byte(lines[0]+"\n"+`{"workItemId":"wi-1","fileName":"x","decision":"maybe","createdAt":"2026-01-01T00:00:00Z"}`+"\n"), 0o600)
	c := filepath.Join(dir, "c.db")
	_, errOut, code = siftCmd(t, "decisions", "import", bad, "--db", c)
	if code == 0 || !strings.Contains(errOut, bad+":3: \"maybe\" is not a decision") || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("import of a bad file: %d %q", code, errOut)
	}
	if out, _, _ := siftCmd(t, "decisions", "export", "--db", c); out != "" {
		t.Fatalf("a failed import stored %q", out)
	}
}
