package main

import (
	"os"
	"path/filepath"
	"strconv"
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
	// A --since past a hundred years means all time: the backup holds
	// everything, and the report every run (Hardening II, item 12).
	for _, since := range []string{"106752d", "999999d", "9999999999h"} {
		if out, errOut, _ := siftCmd(t, "decisions", "export", "--since", since, "--db", b); out != exported {
			t.Fatalf("export --since %s: %q %q", since, out, errOut)
		}
		if out, errOut, code := siftCmd(t, "report", "--since", since, "--format", "json", "--db", b); code != 0 ||
			!strings.Contains(out, "work-1-a1b2c3.jsonl") {
			t.Fatalf("report --since %s: %d %q %q", since, code, out, errOut)
		}
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

// TestDecisionsImportRefusesAndReports: a line no reviewer could have
// written is refused with FILE:LINE and nothing of the file is stored; an
// old decision never displaces today's; the import names the reviewers it
// introduces (you among them) and the sessions the store lacks.
func TestDecisionsImportRefusesAndReports(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	t.Setenv("USER", "ana")
	db, _ := importStreams(t, dir, map[string]string{"wi-1/work-1-a1b2c3.jsonl": recordedStream(t)})
	if out, errOut, code := siftCmd(t, "decide", "wi-1/work-1-a1b2c3.jsonl", "--decision", "needs_followup", "--note", "why?", "--db", db); code != 0 {
		t.Fatalf("decide: %q %q", out, errOut)
	}
	line := func(reviewer, created string, seen int) string {
		return `{"workItemId":"wi-1","fileName":"work-1-a1b2c3.jsonl","decision":"reviewed","reviewerId":"` + reviewer +
			`","createdAt":"` + created + `","seenLine":` + strconv.Itoa(seen) + "}\n"
	}
	old := line("bo", "2020-01-02T03:04:05Z", 3)
	for _, tc := range []struct{ bad, want string }{
		{line("bo", "2999-01-01T00:00:00Z", 3), ":3: createdAt 2999-01-01T00:00:00Z is in the future"},
		{line("bo", "2020-01-02T03:04:05Z", -4), ":3: seenLine -4 is not a line"},
		{line("bo", "2020-01-02T03:04:05Z", 1<<40), ":3: seenLine 1099511627776 is not a line"},
		{line(strings.Repeat("x", 100_000), "2020-01-02T03:04:05Z", 3), ":3: reviewerId of 100000 bytes"},
	} {
		file := filepath.Join(dir, "bad.jsonl")
		os.WriteFile(file, []byte(old+"\n"+tc.bad), 0o600)
		_, errOut, code := siftCmd(t, "decisions", "import", file, "--db", db)
		if code == 0 || !strings.Contains(errOut, file+tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("import of %.60q: %d %q, want %q", tc.bad, code, errOut, tc.want)
		}
	}
	if out, _, _ := siftCmd(t, "decide", "wi-1/work-1-a1b2c3.jsonl", "--history", "--db", db); strings.Contains(out, "bo") {
		t.Fatalf("a refused file stored decisions:\n%s", out)
	}
	file := filepath.Join(dir, "ok.jsonl")
	ghost := strings.Replace(line("ana", "2020-01-02T03:04:05Z", 3), "work-1-a1b2c3", "gone", 1)
	os.WriteFile(file, []byte(old+ghost), 0o600)
	out, errOut, code := siftCmd(t, "decisions", "import", file, "--db", db)
	if code != 0 || out != "imported 2 decisions, 0 already in the store\n" ||
		!strings.Contains(errOut, "new reviewer bo\n") ||
		!strings.Contains(errOut, "1 session this store does not hold, kept for when it does: wi-1/gone.jsonl") {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	if list, _, _ := siftCmd(t, "list", "--json", "--db", db); !strings.Contains(list, `"decision": "needs_followup"`) {
		t.Fatalf("the 2020 review imported today displaced today's follow-up:\n%s", list)
	}
	if fu, _, _ := siftCmd(t, "followups", "--db", db); !strings.Contains(fu, "why?") {
		t.Fatalf("today's follow-up is no longer open:\n%s", fu)
	}
	mine := filepath.Join(dir, "mine.jsonl")
	os.WriteFile(mine, []byte(line("ana", "2020-01-02T03:04:05Z", 3)), 0o600)
	fresh := filepath.Join(dir, "fresh.db")
	if _, errOut, code := siftCmd(t, "decisions", "import", mine, "--db", fresh); code != 0 ||
		!strings.Contains(errOut, "new reviewer ana (that is you") {
		t.Fatalf("an import of decisions by the current user says nothing: %d %q", code, errOut)
	}
}
