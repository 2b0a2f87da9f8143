package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// importedDB imports streams (path under the logs folder, WORKITEM/FILE →
// content) into a new store and returns the database.
func importedDB(t *testing.T, streams map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config")) // no user configuration
	db, logs := filepath.Join(dir, "sift.db"), filepath.Join(dir, "logs")
	for name, data := range streams {
		path := filepath.Join(logs, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, errOut, code := siftCmd(t, "import", "--db", db, logs); code != 0 {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	return db
}

// resumeEnv imports streams (file name under logs/wi-1 → content) into a
// new store, records a needs_followup decision with a note on each, and
// returns the database.
func resumeEnv(t *testing.T, streams map[string]string) string {
	t.Helper()
	named := map[string]string{}
	for name, data := range streams {
		named["wi-1/"+name] = data
	}
	db := importedDB(t, named)
	for name := range named {
		if _, errOut, code := siftCmd(t, "decide", "--db", db, name, "--decision", "needs_followup",
			"--note", "rerun the tests"); code != 0 {
			t.Fatalf("decide %s: %d %q", name, code, errOut)
		}
	}
	return db
}

// streamWithID is a recorded stream whose session id is replaced by id.
func streamWithID(t *testing.T, file, oldID, id string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "streams", file))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), oldID) {
		t.Fatalf("%s does not hold the id %s", file, oldID)
	}
	return strings.ReplaceAll(string(data), oldID, id)
}

// TestReportResumeNeverTakesAnIDAsAFlag: a stream whose session id is a
// flag of its agent's CLI, with a follow-up on it, puts no command with
// that flag in the report, in any format: the report says why there is
// no command, as sift followups does.
func TestReportResumeNeverTakesAnIDAsAFlag(t *testing.T) {
	const codexFlag, claudeFlag = "--dangerously-bypass-approvals-and-sandbox", "--dangerously-skip-permissions"
	db := resumeEnv(t, map[string]string{
		"work-1-c0dec5.jsonl": streamWithID(t, "codex/e2e-codex-0.171.0-scripted.jsonl",
			"01a228ca-6c23-7b71-9824-63b909c09da0", codexFlag),
		"work-2-c1a0de.jsonl": streamWithID(t, "claude/e2e-claude-code-2.1.332-scripted.jsonl",
			"eff3be49-5d5c-492c-baea-ad4d629adf93", claudeFlag),
	})
	for _, format := range []string{"md", "html", "json"} {
		out, errOut, code := siftCmd(t, "report", "--db", db, "--format", format)
		if code != 0 {
			t.Fatalf("report --format %s: %d %q", format, code, errOut)
		}
		if strings.Count(out, "rerun the tests") < 2 {
			t.Fatalf("%s: the follow-ups are missing:\n%s", format, out)
		}
		for _, flag := range []string{codexFlag, claudeFlag, "dangerously"} {
			if strings.Contains(out, flag) {
				t.Errorf("%s: the report carries %q:\n%s", format, flag, out)
			}
		}
		if !strings.Contains(out, "the session id is not a codex session id") ||
			!strings.Contains(out, "the session id is not a claude session id") {
			t.Errorf("%s: the report does not say why there is no resume command:\n%s", format, out)
		}
	}
}

// TestReportResumeIsFollowupsResume: the report's resume command for a
// follow-up is the one sift followups gives for it, in every format.
func TestReportResumeIsFollowupsResume(t *testing.T) {
	db := resumeEnv(t, map[string]string{
		"work-1-c0dec5.jsonl": streamWithID(t, "codex/e2e-codex-0.171.0-scripted.jsonl",
			"01a228ca-6c23-7b71-9824-63b909c09da0", "01a228ca-6c23-7b71-9824-63b909c09da0"),
	})
	out, errOut, code := siftCmd(t, "followups", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("followups: %d %q", code, errOut)
	}
	var fs []followupJSON
	if err := json.Unmarshal([]byte(out), &fs); err != nil || len(fs) != 1 || fs[0].Resume == nil {
		t.Fatalf("followups: %v %s", err, out)
	}
	want := fs[0].Resume.Command
	report := func(format string) string {
		t.Helper()
		out, errOut, code := siftCmd(t, "report", "--db", db, "--format", format)
		if code != 0 {
			t.Fatalf("report --format %s: %d %q", format, code, errOut)
		}
		return out
	}
	var r struct {
		Followups []struct {
			Resume string `json:"resume"`
		} `json:"followups"`
	}
	if err := json.Unmarshal([]byte(report("json")), &r); err != nil || len(r.Followups) != 1 {
		t.Fatalf("report json: %v %+v", err, r)
	}
	if r.Followups[0].Resume != want {
		t.Errorf("json: resume %q, sift followups %q", r.Followups[0].Resume, want)
	}
	if md := report("md"); !strings.Contains(md, "resume: `"+want+"`") {
		t.Errorf("md: no resume %q:\n%s", want, md)
	}
	if page := report("html"); !strings.Contains(page, "<code>"+strings.ReplaceAll(want, "'", "&#39;")+"</code>") {
		t.Errorf("html: no resume %q:\n%s", want, page)
	}
}
