package ingest

import (
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents"
)

// TestClaudeHistoryLayout pins which files under Claude Code's projects
// folder are transcripts and how they are named: a session, a subagent,
// and a transcript in a nested folder of a project (found, as ccusage's
// projects/**/*.jsonl finds it).
func TestClaudeHistoryLayout(t *testing.T) {
	t.Parallel()
	root := "/h/.claude/projects"
	for _, tc := range []struct {
		rel, work, file string
		ok              bool
	}{
		{"p/s.jsonl", "p", "s.jsonl", true},
		{"p/s/subagents/agent-a1.jsonl", "p", "s.agent-a1.jsonl", true},
		{"p/s/nested/t.jsonl", "p", "s.nested.t.jsonl", true},
		{"p/s/t.jsonl", "p", "s.t.jsonl", true},
		{"s.jsonl", "", "", false},
		{"p/notes.txt", "", "", false},
	} {
		l, ok := historyLayout(agents.ClaudeHistory, root, filepath.Join(root, tc.rel))
		if ok != tc.ok || ok && (l.WorkItemID != tc.work || l.FileName != tc.file) {
			t.Errorf("%s: %+v %v, want %s/%s %v", tc.rel, l, ok, tc.work, tc.file, tc.ok)
		}
	}
}
