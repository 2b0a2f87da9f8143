package app

import (
	"runtime"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
)

// TestHistoryRoots pins where each CLI's history is looked for.
func TestHistoryRoots(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		name string
		env  map[string]string
		want []ingest.HistoryRoot
	}{
		{"defaults under home", map[string]string{"HOME": "/h"}, []ingest.HistoryRoot{
			{Agent: agents.ClaudeHistory, Dir: "/h/.config/claude/projects"},
			{Agent: agents.ClaudeHistory, Dir: "/h/.claude/projects"},
			{Agent: agents.CodexHistory, Dir: "/h/.codex/sessions"},
			{Agent: agents.GeminiHistory, Dir: "/h/.gemini/tmp"},
		}},
		{"overrides", map[string]string{"HOME": "/h", "CLAUDE_CONFIG_DIR": "/a, /b,", "CODEX_HOME": "/c", "GEMINI_DIR": "/g"}, []ingest.HistoryRoot{
			{Agent: agents.ClaudeHistory, Dir: "/a/projects"},
			{Agent: agents.ClaudeHistory, Dir: "/b/projects"},
			{Agent: agents.CodexHistory, Dir: "/c/sessions"},
			{Agent: agents.GeminiHistory, Dir: "/g/tmp"},
		}},
		{"xdg and gemini's home override", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x", "GEMINI_CLI_HOME": "/gh"}, []ingest.HistoryRoot{
			{Agent: agents.ClaudeHistory, Dir: "/x/claude/projects"},
			{Agent: agents.ClaudeHistory, Dir: "/h/.claude/projects"},
			{Agent: agents.CodexHistory, Dir: "/h/.codex/sessions"},
			{Agent: agents.GeminiHistory, Dir: "/gh/.gemini/tmp"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []ingest.HistoryRoot
			for _, r := range HistoryRoots(env(tc.env)) {
				// The harnesses of one file per session; the others'
				// roots are pinned below.
				if r.Agent == agents.ClaudeHistory || r.Agent == agents.CodexHistory || r.Agent == agents.GeminiHistory {
					got = append(got, r)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("root %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestVSCodeTaskRoots pins where Cline's, Roo Code's and Kilo Code's task
// folders are looked for: each VS Code build's globalStorage, in the
// application data folder of the OS ($XDG_CONFIG_HOME, else ~/.config, on
// Linux), and a remote server's.
func TestVSCodeTaskRoots(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("pins the Linux folders")
	}
	var got []string
	for _, r := range HistoryRoots(func(k string) string { return map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x"}[k] }) {
		if r.Agent == agents.ClineHistory {
			got = append(got, r.Dir)
		}
	}
	want := []string{
		"/x/Code/User/globalStorage/saoudrizwan.claude-dev/tasks",
		"/x/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/tasks",
		"/x/VSCodium/User/globalStorage/saoudrizwan.claude-dev/tasks",
		"/x/Cursor/User/globalStorage/saoudrizwan.claude-dev/tasks",
		"/x/Windsurf/User/globalStorage/saoudrizwan.claude-dev/tasks",
		"/h/.vscode-server/data/User/globalStorage/saoudrizwan.claude-dev/tasks",
		"/h/.vscode-remote/data/User/globalStorage/saoudrizwan.claude-dev/tasks",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("cline roots:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestImportHistoryAndUsageCommands runs `sift import --history` on a
