package aider

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// aiderProjects holds the recorded chat histories, each in a project
// folder of its own (testdata/histories/aider/PROVENANCE.md).
var aiderProjects = filepath.Join(agentstest.StreamsDir, "..", "histories", "aider", "home", "src")

// aiderSession lists a recorded project's sessions and parses the one
// with the given id.
func aiderSession(t *testing.T, project, id string) ([]agents.StoredSession, []*event.Event) {
	t.Helper()
	ss, _, err := aiderSessions(filepath.Join(aiderProjects, project))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if s.ID == id {
			b, err := s.Lines()
			if err != nil {
				t.Fatal(err)
			}
			evs, st := agentstest.ParseBytes(t, b, agents.Options{Agent: agents.AiderHistory})
			agentstest.AssertEveryLine(t, id, b, evs, st)
			return ss, evs
		}
	}
	t.Fatalf("%s: no session %s", project, id)
	return nil, nil
}

// TestAiderSessions pins how a recorded chat history splits into
// sessions: one per "# aider chat started at" block, named by its start,
// keyed by the file; the head of a file cut by hand (no header) and
// blocks with no work (an aider started and left, a --show-repo run)
// are none.
func TestAiderSessions(t *testing.T) {
	t.Parallel()
	ss, _, err := aiderSessions(filepath.Join(aiderProjects, "aider-head"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range ss {
		ids = append(ids, s.ID)
	}
	// The fixture's head has eleven headers: 19:33:02 and 20:42:31 ran
	// --lint --commit (a commit each), 19:33:32 applied an edit, 20:39:59
	// took a prompt; 20:40:10 only showed the repo map, 20:40:33 ran a
	// /help that asked to install its extras, 20:41:15 was left with ^C,
	// and 08:28:28 to 08:42:43 hold nothing.
	want := []string{"aider-20240805-193302", "aider-20240805-193332", "aider-20240805-203959", "aider-20240805-204231"}
	if !slices.Equal(ids, want) {
		t.Fatalf("sessions %v, want %v", ids, want)
	}
	path := filepath.Join(aiderProjects, "aider-head", aiderHistoryFile)
	for _, s := range ss {
		if s.Key != path+"#"+s.ID || s.Project != filepath.Dir(path) {
			t.Errorf("%s: key %q, project %q", s.ID, s.Key, s.Project)
		}
	}
	if ss[1].MTime != ss[1].MTime/1000*1000 || ss[1].Size != 3568 {
		t.Errorf("change token %d bytes at %d, want the block's length and its start", ss[1].Size, ss[1].MTime)
	}
}

// TestAiderSessionGrows: the ids and change tokens of the sessions a
// file held stay as they were when Aider appends to its last session and
// starts another, so that only those two are read again; a second
// session started in the same second has an id of its own.
func TestAiderSessionGrows(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join(aiderProjects, "aider-overloaded", aiderHistoryFile))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, aiderHistoryFile)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	before, _, err := aiderSessions(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The last session takes another prompt; the same second, another
	// session starts and is answered (Aider's own lines, as io.py writes
	// them).
	more := "#### hi again  \n\nHello again!\n\n" +
		"\n# aider chat started at 2024-08-08 13:59:28\n\n> Aider v0.48.2-dev  \n\n#### hi  \n\nHello!\n\n"
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(more); err != nil {
		t.Fatal(err)
	}
	f.Close()
	after, _, err := aiderSessions(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before)+1 {
		t.Fatalf("%d sessions after, %d before: want one more", len(after), len(before))
	}
	for i, b := range before {
		a := after[i]
		changed := a.Size != b.Size || a.MTime != b.MTime
		if a.ID != b.ID || a.Key != b.Key || changed != (i == len(before)-1) {
			t.Errorf("%s: %s after, changed %v", b.ID, a.ID, changed)
		}
	}
	if got := after[len(after)-1].ID; got != "aider-20240808-135928-2" {
		t.Errorf("the second session of 13:59:28 is %s", got)
	}
}

// TestAiderEditAndCommit reads a session that applied an edit and
// committed it: the prompt, the reply with the model the session
// announced, the edit and the commit as completed calls, the rounded
// Tokens line as Aider's notice (no usage), completed by the reply.
func TestAiderEditAndCommit(t *testing.T) {
	t.Parallel()
	_, evs := aiderSession(t, "aider-head", "aider-20240805-193332")
	start := agentstest.OfKind(evs, event.SessionStart)
	if len(start) != 1 || start[0].Update.CLIVersion != "v0.47.2-dev" || !strings.HasSuffix(start[0].Update.Cwd, "aider-head") {
		t.Fatalf("session start %+v", start)
	}
	if st := start[0].Timestamp; st.Format(aiderTimeLayout) != "2024-08-05 19:33:32" {
		t.Errorf("started %v", st)
	}
	prompts := agentstest.OfKind(evs, event.UserMessageChunk)
	if len(prompts) != 1 || prompts[0].Update.Content.Text != "Use the Spinner instead of the inlined custom spinner" {
		t.Fatalf("prompts %v", prompts)
	}
	replies := agentstest.OfKind(evs, event.AgentMessageChunk)
	if len(replies) != 1 || replies[0].Model != "claude-3-5-sonnet-20240620" ||
		!strings.Contains(replies[0].Update.Content.Text, "<<<<<<< SEARCH\ndef run_install(cmd):\n    print()") {
		t.Fatalf("reply %v: want the model's text, fences and indentation kept", replies)
	}
	calls := agentstest.OfKind(evs, event.ToolCall)
	if len(calls) != 2 {
		t.Fatalf("%d calls, want the edit and the commit", len(calls))
	}
	if c := calls[0].Update; c.ToolKind != event.ToolEdit || len(c.Locations) != 1 || c.Locations[0].Path != "aider/utils.py" {
		t.Errorf("edit call %+v", c)
	}
	if c := calls[1].Update; c.ToolName != "commit" || c.Title != "Commit fd43cd4 feat: Use the Spinner instead of the inlined custom spinner" {
		t.Errorf("commit call %+v", c)
	}
	for _, u := range agentstest.OfKind(evs, event.ToolCallUpdate) {
		if u.Update.Status != event.StatusCompleted {
			t.Errorf("%s: %s", u.Update.ToolCallID, u.Update.Status)
		}
	}
	if n := len(agentstest.OfKind(evs, event.Usage)); n != 0 {
		t.Errorf("%d usage events: Aider's Tokens line is rounded text, not a count", n)
	}
	var tokens bool
	for _, ev := range agentstest.OfKind(evs, event.System) {
		tokens = tokens || strings.HasPrefix(ev.Update.Text, "Tokens: 5,244 sent, 604 received.")
	}
	if !tokens {
		t.Error("the Tokens line is not kept as Aider's notice")
	}
	// The commands the person typed after the reply (/diff, /ex) are no
	// prompts.
	res := agentstest.OfKind(evs, event.Result)
	if len(res) != 1 || *res[0].Update.IsError || !strings.HasPrefix(res[0].Update.Text, "Certainly!") || res[0].Line != replies[0].Line {
		t.Errorf("result %+v, want the reply's", res)
	}
}

// TestAiderEnds pins how recorded sessions end: with the last reply
// (a result), or with the error after the last prompt (the last error
// entry, its traceback no error of its own), or with neither.
func TestAiderEnds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, project, id string
		reply             string // the result's text; "" for no result
		lastError         string // the last error entry; "" for none
	}{
		{"a failed request, its traceback one error", "aider-overloaded", "aider-20240808-135436", "",
			`Unexpected error: litellm.APIConnectionError: b'{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'`},
		{"an error with no traceback", "aider-overloaded", "aider-20240808-135823", "",
			"Unexpected error: No active exception to reraise"},
		{"a reply", "aider-overloaded", "aider-20240808-135442", "Bonjour!", ""},
		{"a prompt left with ^C before its reply", "aider-head", "aider-20240805-203959", "", ""},
		{"a commit alone (--lint --commit)", "aider-head", "aider-20240805-193302", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, evs := aiderSession(t, tc.project, tc.id)
			res := agentstest.OfKind(evs, event.Result)
			switch {
			case tc.reply == "" && len(res) != 0:
				t.Errorf("result %+v, want none", res[0].Update)
			case tc.reply != "" && (len(res) != 1 || *res[0].Update.IsError || !strings.HasPrefix(res[0].Update.Text, tc.reply)):
				t.Errorf("results %v, want the reply %q", res, tc.reply)
			}
			errs := agentstest.OfKind(evs, event.Error)
			switch {
			case tc.lastError == "" && len(errs) != 0:
				t.Errorf("errors %q, want none", errs[0].Update.Message)
			case tc.lastError != "" && (len(errs) != 1 || errs[0].Update.Message != tc.lastError || evs[len(evs)-1].Update.SessionUpdate == event.Result):
				t.Errorf("errors %v, want one, %q, and no result after", errs, tc.lastError)
			}
		})
	}
}

// TestAiderShellCommands: the commands Aider ran (--apply) are execute
// calls; a confirmation whose subject has two lines (written with the
// prefix on its first only) is one notice.
func TestAiderShellCommands(t *testing.T) {
	t.Parallel()
	ss, evs := aiderSession(t, "aider-apply", "aider-20240821-151418")
	if len(ss) != 6 {
		t.Errorf("%d sessions, want 6", len(ss))
	}
	var cmds []string
	for _, c := range agentstest.OfKind(evs, event.ToolCall) {
		if c.Update.ToolKind != event.ToolExecute {
			t.Errorf("%s: kind %s", c.Update.Title, c.Update.ToolKind)
		}
		cmds = append(cmds, c.Update.Title)
	}
	if !slices.Equal(cmds, []string{"Run: date", "Run: date"}) {
		t.Errorf("calls %q", cmds)
	}
	var subject bool
	for _, ev := range agentstest.OfKind(evs, event.System) {
		subject = subject || ev.Update.Text == "date\ndate"
	}
	if !subject {
		t.Error("the two-line subject is not one notice")
	}
}

// TestAiderRenderQuirks pins the Markdown shapes that are not what they
// look like, each as aider/io.py writes it.
func TestAiderRenderQuirks(t *testing.T) {
	t.Parallel()
	const head = "# aider chat started at 2024-08-05 19:33:32\n\n"
	for _, tc := range []struct {
		name, md string
		want     []string // the rendered records after the session's
	}{
		{"an input of two lines, and an empty one",
			"#### first  \n#### second  \n\n#### <blank>  \n",
			[]string{`{"user":"first\nsecond"}`, `{"user":""}`}},
		{"two inputs with nothing between",
			"#### /clear  \n\n#### hi  \n",
			[]string{`{"user":"/clear"}`, `{"user":"hi"}`}},
		{"a reply's own heading and quote, unmarked",
			"#### hi  \n\nSee:\n\n#### `Coder` Class\n\n> a quote\n\nDone.\n\n> Tokens: 1 sent, 2 received.  \n",
			[]string{`{"user":"hi"}`, "{\"assistant\":\"See:\\n\\n#### `Coder` Class\\n\\n> a quote\\n\\nDone.\"}", `{"note":"Tokens: 1 sent, 2 received."}`}},
		{"a message of several lines prefixed on its first only",
			"#### /test x  \n> ===== test session starts =====\nplatform darwin\n\n1 failed  \n\nFix it.\n\n",
			[]string{`{"user":"/test x"}`, `{"note":"===== test session starts =====\nplatform darwin\n\n1 failed"}`, `{"assistant":"Fix it."}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := aiderRenderBlock([]byte(head+tc.md), "aider-20240805-193332", "/p")
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			if !strings.HasPrefix(lines[0], `{"session":`) || !slices.Equal(lines[1:], tc.want) {
				t.Errorf("render:\n%s\nwant after the session:\n%s", strings.Join(lines, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestAiderInProjects pins where a known project folder's chat history
// is looked for: the folder and its git root (Aider writes there when
// started in a subfolder), a relative $AIDER_CHAT_HISTORY_FILE under
// either; an absolute one is a root of its own (aiderDirs). Each root is
// the history file itself, never the project folder the session view
// would then open any file of.
func TestAiderInProjects(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	sub := filepath.Join(repo, "cmd", "tool")
	for _, d := range []string{filepath.Join(repo, ".git"), sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(repo, aiderHistoryFile), filepath.Join(sub, "notes.md")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	none := func(string) string { return "" }
	if got := aiderInProjects(none, sub); !slices.Equal(got, []string{filepath.Join(repo, aiderHistoryFile)}) {
		t.Errorf("a subfolder of the repository: %v, want the file in its git root", got)
	}
	rel := func(k string) string {
		if k == "AIDER_CHAT_HISTORY_FILE" {
			return "notes.md"
		}
		return ""
	}
	if got := aiderInProjects(rel, sub); !slices.Equal(got, []string{filepath.Join(sub, "notes.md"), filepath.Join(repo, aiderHistoryFile)}) {
		t.Errorf("with a relative AIDER_CHAT_HISTORY_FILE: %v", got)
	}
	if got := aiderInProjects(none, "rel/dir"); got != nil {
		t.Errorf("a relative folder: %v", got)
	}
	abs := func(k string) string {
		if k == "AIDER_CHAT_HISTORY_FILE" {
			return "/srv/chat.md"
		}
		return ""
	}
	if got := aiderDirs(abs, "/home/u"); !slices.Equal(got, []string{"/srv/chat.md"}) {
		t.Errorf("an absolute AIDER_CHAT_HISTORY_FILE: %v", got)
	}
	if got := aiderDirs(rel, "/home/u"); got != nil {
		t.Errorf("nothing under HOME: %v", got)
	}
}

// FuzzAiderRender renders any Markdown as a session: no panic, a session
// line first, every line JSON the parser reads, every input line in one
// record or another.
func FuzzAiderRender(f *testing.F) {
	for _, p := range []string{"aider-head", "aider-overloaded", "aider-apply"} {
		b, err := os.ReadFile(filepath.Join(aiderProjects, p, aiderHistoryFile))
		if err != nil {
			f.Fatal(err)
		}
		for _, block := range bytes.SplitAfter(b, []byte("\n# aider chat")) {
			f.Add(block)
		}
	}
	f.Fuzz(func(t *testing.T, md []byte) {
		b, err := aiderRenderBlock(append([]byte(aiderHeader+"2024-08-05 19:33:32\n"), md...), "aider-20240805-193332", "/p")
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
		var r aiderRecord
		if json.Unmarshal(lines[0], &r) != nil || r.Session == nil {
			t.Fatalf("first line %s", lines[0])
		}
		evs, st := agentstest.ParseBytes(t, b, agents.Options{Agent: agents.AiderHistory})
		agentstest.AssertEveryLine(t, "render", b, evs, st)
		for _, ev := range evs {
			if ev.Update.SessionUpdate == event.Raw {
				t.Fatalf("a rendered line the parser did not read: %s", ev.Update.Text)
			}
		}
	})
}
