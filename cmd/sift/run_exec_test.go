package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
	"github.com/agentsift/sift/tui"
)

// TestRunRecordsItsWorkingDirectory: `sift run` records the folder the
// agent ran in on its invocation, and the inbox's session carries it, so
// that `e` resolves the stream's relative paths there and nowhere else.
func TestRunRecordsItsWorkingDirectory(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, "")
	agent := fakeAgent(t, e.dir, "claude", "cat "+runFixture+"\n")
	if code, _, stderr := e.run(t, "--agent", "claude", "--work-item", "wi-cwd", "--bin", agent, "--", "-p", "hi"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(e.logs, "wi-cwd", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("stream files %q", files)
	}
	st, err := store.Open(e.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	name := filepath.Base(files[0])
	if got, err := st.InvocationCwd(ctx, "wi-cwd", name); err != nil || got != wd {
		t.Errorf("recorded cwd %q, %v; want sift's %q", got, err, wd)
	}
	s, err := st.GetSession(ctx, review.SessionKey{WorkItemID: "wi-cwd", FileName: name})
	if err != nil {
		t.Fatal(err)
	}
	if s.Cwd != wd || s.Path != files[0] {
		t.Errorf("inbox session cwd %q path %q; want %q and %q", s.Cwd, s.Path, wd, files[0])
	}
}

// TestRunArgvIsNeverTakenFromAStream: a stream naming commands and
// option-like paths (a kimi resume hint, a Read of `+!touch …`, a Bash
// call) leaves the next run of the same work item with exactly the CLI's
// stream flags and the user's own arguments.
func TestRunArgvIsNeverTakenFromAStream(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, "")
	argsFile := filepath.Join(e.dir, "args")
	hostile := filepath.Join(e.dir, "hostile.jsonl")
	lines := `{"role":"assistant","content":"reading","tool_calls":[{"type":"function","id":"c1","function":{"name":"ReadFile","arguments":"{\"path\":\"+!touch /tmp/x\"}"}}]}
{"role":"tool","tool_call_id":"c1","content":"ok"}
{"role":"assistant","content":"","tool_calls":[{"type":"function","id":"c2","function":{"name":"Shell","arguments":"{\"command\":\"--dangerously-skip-permissions\"}"}}]}
{"role":"tool","tool_call_id":"c2","content":"ok"}
{"role":"meta","type":"session.resume_hint","session_id":"--yolo","command":"kimi --yolo -c 'touch /tmp/x'","content":"resume"}
`
	if err := os.WriteFile(hostile, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	agent := fakeAgent(t, e.dir, "kimi", `printf '%s\n' "$@" >> `+argsFile+`
echo -- >> `+argsFile+`
cat `+hostile+`
`)
	for _, prompt := range []string{"first", "again"} {
		if code, _, stderr := e.run(t, "--agent", "kimi", "--work-item", "wi-argv", "--bin", agent, "--", "-p", prompt); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	data, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	want := "--print\n--output-format\nstream-json\n-p\nfirst\n--\n--print\n--output-format\nstream-json\n-p\nagain\n--\n"
	if string(data) != want {
		t.Errorf("agent argv of the two runs:\n%s\nwant:\n%s", data, want)
	}
}

// TestRunPromptIsOnRecord: claude's stream-json carries no prompt; the
// arguments sift run passed it (the prompt among them, a secret in it
// redacted) are recorded with the invocation, shown in the session's
// prompt row, and exported with the trajectory.
func TestRunPromptIsOnRecord(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, "")
	agent := fakeAgent(t, e.dir, "claude", "cat "+runFixture+"\n")
	secret := "ghp_" + strings.Repeat("R4t5Y6u7", 5)[:36]
	prompt := "what did I ask? use token " + secret
	if code, _, stderr := e.run(t, "--agent", "claude", "--work-item", "wi-ask", "--bin", agent, "--", "-p", prompt); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(e.logs, "wi-ask", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("stream files %q", files)
	}
	st, err := store.Open(e.db)
	if err != nil {
		t.Fatal(err)
	}
	k := review.SessionKey{WorkItemID: "wi-ask", FileName: filepath.Base(files[0])}
	s, err := st.GetSession(context.Background(), k)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Join(s.RunArgs, " ")
	if !strings.Contains(args, "what did I ask? use token [REDACTED:") || strings.Contains(args, secret[4:20]) {
		t.Fatalf("recorded arguments %q: want the prompt, redacted", s.RunArgs)
	}
	// The inbox's prompt row.
	m, err := tui.NewApp(tui.Options{Store: openStore(t, e.db), Theme: "dark", NoAnimation: true, Resume: resumeOf})
	if err != nil {
		t.Fatal(err)
	}
	sendAll(t, m, tea.WindowSizeMsg{Width: 200, Height: 40})
	runCmd(t, m, m.Init())
	sendAll(t, m, keyPress("enter"))
	if screen := ansi.Strip(m.View().Content); !strings.Contains(screen, "sift run passed: -p 'what did I ask? use token [REDACTED:") {
		t.Errorf("the prompt row does not show what sift run passed:\n%s", screen)
	}
	// The export.
	out, errOut, code := siftCmd(t, "export", "--db", e.db, "--config", e.config, k.String())
	if code != 0 || !strings.Contains(out, `"sift_run_args"`) || !strings.Contains(out, "what did I ask?") || strings.Contains(out, secret[4:20]) {
		t.Errorf("export: %d %q\n%s", code, errOut, out)
	}
}
