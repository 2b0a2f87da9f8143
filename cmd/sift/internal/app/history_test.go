package app

import (
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
			got := HistoryRoots(env(tc.env))
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

// TestImportHistoryAndUsageCommands runs `sift import --history` on a
