package main

import (
	"encoding/json"
	"html"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/cmd/sift/internal/httpapi"
	"github.com/agentsift/sift/core/export"
	"github.com/agentsift/sift/store"
	"github.com/agentsift/sift/tui"
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

// TestResumeIsOneCommandEverywhere: for the same follow-ups, the inbox's
// follow-ups list, sift followups, sift report (every format) and the API
// show the same resume command: interactive, in the folder the stream
// records when that folder exists (labelled so), and the form that sends
// the note as the prompt beside it, labelled. A codex run whose stream
// records no folder says the folder is unknown.
func TestResumeIsOneCommandEverywhere(t *testing.T) {
	project := t.TempDir()
	const claudeID, codexID = "eff3be49-5d5c-492c-baea-ad4d629adf93", "01a228ca-6c23-7b71-9824-63b909c09da0"
	claude := streamWithID(t, "claude/e2e-claude-code-2.1.332-scripted.jsonl", claudeID, claudeID)
	claude = regexp.MustCompile(`"cwd":"[^"]*"`).ReplaceAllString(claude, `"cwd":"`+project+`"`)
	db := resumeEnv(t, map[string]string{
		"work-1-c0dec5.jsonl": streamWithID(t, "codex/e2e-codex-0.171.0-scripted.jsonl", codexID, codexID),
		"work-2-c1a0de.jsonl": claude,
	})
	out, errOut, code := siftCmd(t, "followups", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("followups: %d %q", code, errOut)
	}
	var fs []export.FollowupItem
	if err := json.Unmarshal([]byte(out), &fs); err != nil || len(fs) != 2 {
		t.Fatalf("followups: %v %s", err, out)
	}
	want := map[string]*export.ResumeCommand{}
	for _, f := range fs {
		if f.Resume == nil || f.Resume.WithNote == nil {
			t.Fatalf("%s: no resume or no note form: %+v %q", f.AgentKind, f.Resume, f.ResumeUnavailable)
		}
		want[f.AgentKind] = f.Resume
	}
	if c := want["claude"]; c.Command != "cd -- "+project+" && claude --resume "+claudeID || c.DirFrom != "the stream" ||
		c.WithNote.Command != "cd -- "+project+" && claude --resume "+claudeID+" -p -- 'rerun the tests'" {
		t.Errorf("claude's resume: %+v %+v", c, c.WithNote)
	}
	if c := want["codex"]; c.Command != "codex resume "+codexID || c.DirUnknown == "" ||
		c.WithNote.Command != "codex exec resume "+codexID+" -- 'rerun the tests'" {
		t.Errorf("codex's resume: %+v %+v", c, c.WithNote)
	}
	text, _, _ := siftCmd(t, "followups", "--db", db)
	for _, c := range want {
		for _, line := range []string{"resume:  " + c.Command, "or:      " + c.WithNote.Command} {
			if !strings.Contains(text, line) {
				t.Errorf("sift followups does not print %q:\n%s", line, text)
			}
		}
	}
	// The report, in each format.
	var r struct {
		Followups []struct {
			Resume, ResumeWithNote string
		} `json:"followups"`
	}
	rep, errOut, code := siftCmd(t, "report", "--db", db, "--format", "json")
	if err := json.Unmarshal([]byte(rep), &r); code != 0 || err != nil || len(r.Followups) != 2 {
		t.Fatalf("report json: %d %q %v %s", code, errOut, err, rep)
	}
	for _, f := range r.Followups {
		if !slices.ContainsFunc(fs, func(x export.FollowupItem) bool {
			return x.Resume.Command == f.Resume && x.Resume.WithNote.Command == f.ResumeWithNote
		}) {
			t.Errorf("report json: resume %q / %q is not sift followups'", f.Resume, f.ResumeWithNote)
		}
	}
	md, _, _ := siftCmd(t, "report", "--db", db, "--format", "md")
	page, _, _ := siftCmd(t, "report", "--db", db, "--format", "html")
	for _, c := range want {
		if !strings.Contains(md, "resume: `"+c.Command+"`") || !strings.Contains(md, "`"+c.WithNote.Command+"`") {
			t.Errorf("md: no resume %q:\n%s", c.Command, md)
		}
		if !strings.Contains(page, "<code>"+html.EscapeString(c.Command)+"</code>") {
			t.Errorf("html: no resume %q", c.Command)
		}
	}
	// The API and the inbox, on the same store.
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	api, err := httpapi.New(httpapi.Options{Store: st, LogsDir: t.TempDir(), Loopback: true, Resume: resumeOf})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	rec := httptest.NewRecorder()
	api.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1/followups", nil))
	var viaAPI []export.FollowupItem
	if err := json.Unmarshal(rec.Body.Bytes(), &viaAPI); err != nil || rec.Code != 200 || len(viaAPI) != 2 {
		t.Fatalf("GET /followups: %d %v %s", rec.Code, err, rec.Body)
	}
	for _, f := range viaAPI {
		if w := want[f.AgentKind]; f.Resume == nil || f.Resume.Command != w.Command || f.Resume.WithNote.Command != w.WithNote.Command {
			t.Errorf("API: %s resume %+v, want %+v", f.AgentKind, f.Resume, w)
		}
	}
	m, err := tui.NewApp(tui.Options{Store: st, Theme: "dark", NoAnimation: true, Resume: resumeOf})
	if err != nil {
		t.Fatal(err)
	}
	sendAll(t, m, tea.WindowSizeMsg{Width: 200, Height: 50})
	runCmd(t, m, m.Init())
	sendAll(t, m, keyPress(tui.DefaultKeyMap().Followups.Keys()[0]))
	screen := ansi.Strip(m.View().Content)
	// The box wraps a long command: read it without the box's edges and
	// blanks.
	flat := strings.NewReplacer(" ", "", "│", "", "\n", "").Replace(screen)
	squeeze := strings.NewReplacer(" ", "").Replace
	for _, c := range want {
		if !strings.Contains(flat, squeeze(c.Command)) || !strings.Contains(flat, squeeze(c.WithNote.Command)) {
			t.Errorf("the inbox's follow-ups do not show %q / %q:\n%s", c.Command, c.WithNote.Command, screen)
		}
	}
}
