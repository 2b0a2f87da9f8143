package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// longFailure is the recorded Claude run whose Bash call fails
// (e2e-claude-code-2.1.332-scripted.jsonl), its result made what an
// `npm test` run prints: 150 lines of passing suites, the failing test's
// assertion, jest's totals and npm's own report, under Claude's
// "Exit code 1" prefix. It returns the session, its stream in dir.
func longFailure(t *testing.T, dir string) review.Session {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "streams", "claude", "e2e-claude-code-2.1.332-scripted.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	out.WriteString("Exit code 1\n> demo@1.0.0 test\n> jest\n\n")
	for i := range 150 {
		fmt.Fprintf(&out, "PASS src/suite%03d.test.js\n", i)
	}
	out.WriteString(" FAIL  src/greet.test.js\n  ● greets\n\n    expect(received).toBe(expected) // Object.is equality\n\n" +
		"    Expected: \"hello\"\n    Received: \"hi\"\n\n      at Object.toBe (src/greet.test.js:4:19)\n\n" +
		"Test Suites: 1 failed, 150 passed, 151 total\nTests:       1 failed, 150 passed, 151 total\n" +
		"npm error Lifecycle script `test` failed with error:\nnpm error code 1\nnpm error command failed\nnpm error command sh -c jest")
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	for i, l := range lines {
		if !strings.Contains(l, `"tool_use_id":"toolu_sift02"`) {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		v["message"].(map[string]any)["content"].([]any)[0].(map[string]any)["content"] = out.String()
		v["tool_use_result"] = "Error: " + out.String()
		b, _ := json.Marshal(v)
		lines[i] = string(b)
	}
	path := filepath.Join(dir, "work-1-a1b2c3.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _, err := ingest.AnalyzeFile(path, summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.WorkItemID, s.FileName, s.Phase = "ENG-77", "work-1-a1b2c3.jsonl", "work"
	return review.Session{Summary: *s, Path: path}
}

// TestLongFailureOpensAtItsVerdict: a failed call whose output is 150
// lines of passing noise opens at the line that explains it (the
// assertion, marked), shows the error once, and } and { step through its
// error lines; drawn at the three sizes.
func TestLongFailureOpensAtItsVerdict(t *testing.T) {
	s := longFailure(t, t.TempDir())
	var failed *summary.ToolCall
	for i := range s.ToolCalls {
		if tc := &s.ToolCalls[i]; tc.Success != nil && !*tc.Success {
			failed = tc
		}
	}
	if failed == nil || failed.Why != `Expected: "hello" / Received: "hi"` {
		t.Fatalf("the failed call's explaining line: %+v", failed)
	}
	for _, size := range goldenSizes() {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := newTestApp(t, size[0], size[1], NewMemStore([]review.Session{s}))
			k := m.c.Keys
			press(t, m, k.Enter, k.Enter, k.Enter)
			for i := 0; i < 10 && m.screen == screenToolCall && m.tool.call.ID != failed.ID; i++ {
				press(t, m, k.NextCall)
			}
			if m.screen != screenToolCall || m.tool.call.ID != failed.ID {
				t.Fatal("the failed call does not open")
			}
			checkFrame(t, m, size[0], size[1])
			got := screenText(m)
			if !strings.Contains(got, `▶   Expected: "hello"`) || strings.Contains(got, "─ error") {
				t.Fatalf("the call does not open at its verdict, marked, or shows its error twice:\n%s", got)
			}
			golden.RequireEqual(t, got)
			// { from the verdict marks the FAIL line above it; } steps
			// down through the assertion's two lines to the totals.
			press(t, m, k.PrevError)
			if got := screenText(m); !strings.Contains(got, "▶FAIL  src/greet.test.js") {
				t.Errorf("{ did not mark the FAIL line:\n%s", got)
			}
			press(t, m, k.NextError, k.NextError, k.NextError)
			if got := screenText(m); !strings.Contains(got, "▶Test Suites: 1 failed") {
				t.Errorf("} } } did not mark the totals:\n%s", got)
			}
		})
	}
}

// TestGoneFileIsSaidInWords: a session whose stream file was deleted after
// its import says so once, in words, in the session's prompt row and in
// place of a call's output, never as a Go error; drawn at the three
// sizes.
func TestGoneFileIsSaidInWords(t *testing.T) {
	dir := t.TempDir()
	s := longFailure(t, dir)
	if err := os.Remove(s.Path); err != nil {
		t.Fatal(err)
	}
	for _, size := range goldenSizes() {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := newTestApp(t, size[0], size[1], NewMemStore([]review.Session{s}))
			k := m.c.Keys
			press(t, m, k.Enter)
			checkFrame(t, m, size[0], size[1])
			session := screenText(m)
			press(t, m, k.Enter, k.Enter)
			checkFrame(t, m, size[0], size[1])
			call := screenText(m)
			for what, got := range map[string]string{"session": session, "call": call} {
				if n := strings.Count(got, "gone from disk"); n != 1 || strings.Contains(got, "no such file") {
					t.Errorf("the %s view says the file is gone %d times, or as a Go error:\n%s", what, n, got)
				}
			}
			golden.RequireEqual(t, session+"\n"+call)
		})
	}
}
