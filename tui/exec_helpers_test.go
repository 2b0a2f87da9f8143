package tui

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// readCallID is the id of the Read call in readStream.
const readCallID = "toolu_01ReadCall"

// readStream is a small Claude Code stream: one Read of path, its result
// and the result line.
func readStream(t testing.TB, path string) string {
	t.Helper()
	p, err := json.Marshal(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{
		`{"type":"system","subtype":"init","cwd":"/nonexistent-sift-run-folder","session_id":"s-read","model":"claude-x","tools":["Read"]}`,
		`{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"tool_use","id":"` +
			readCallID + `","name":"Read","input":{"file_path":` + string(p) + `}}],"usage":{"input_tokens":10,"output_tokens":5}},"session_id":"s-read"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + readCallID +
			`","content":"1\tpackage main"}]},"session_id":"s-read"}`,
		`{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":1,"result":"done","session_id":"s-read"}`,
	}
	return strings.Join(lines, "\n") + "\n"
}

// readSession writes readStream into a temporary folder and summarizes it
// as a session of work item WI-1 whose run was recorded in cwd ("" when
// unknown).
func readSession(t testing.TB, path, cwd string) review.Session {
	t.Helper()
	file := filepath.Join(t.TempDir(), "work-1-abc123.jsonl")
	if err := os.WriteFile(file, []byte(readStream(t, path)), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _, err := ingest.AnalyzeFile(file, summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.WorkItemID, s.FileName, s.Phase = "WI-1", "work-1-abc123.jsonl", "work"
	return review.Session{Summary: *s, Path: file, Cwd: cwd}
}

// openReadCall opens the Read call of a readSession in a new app.
func openReadCall(t testing.TB, s review.Session) *App {
	t.Helper()
	m := newTestApp(t, 100, 30, NewMemStore([]review.Session{s}))
	send(t, m, openSessionMsg{key: s.Key()}, openToolCallMsg{id: readCallID})
	if m.screen != screenToolCall || m.tool.detail == nil {
		t.Fatalf("the Read call did not open: screen %d, detail %v, err %v", m.screen, m.tool.detail, m.tool.err)
	}
	return m
}

// pressExec presses a binding like press, and returns the programs the
// app was asked to hand the terminal to (the tests never run them).
func pressExec(t testing.TB, m *App, b key.Binding) []execMsg {
	t.Helper()
	return sendExec(t, m, keyMsg(t, b))
}

// sendExec delivers a message like send, and returns the programs the app
// was asked to hand the terminal to.
func sendExec(t testing.TB, m *App, msg tea.Msg) []execMsg {
	t.Helper()
	var out []execMsg
	_, cmd := m.Update(msg)
	queue := []tea.Cmd{cmd}
	for n := 0; len(queue) > 0; n++ {
		if n > 500 {
			t.Fatal("commands do not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case execMsg:
			out = append(out, msg)
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
	return out
}

// argv is a command's arguments, for messages.
func argv(c *exec.Cmd) string {
	b, _ := json.Marshal(c.Args)
	return string(b)
}
