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

// TestHistorySessionName pins the stored name of a Gemini CLI chat: its
// recorded session id, unless the store holds the same session under
// its file's name already (kept, with its decisions), or the id cannot
// name a file.
func TestHistorySessionName(t *testing.T) {
	t.Parallel()
	const name, id = "session-2026-03-03T09-00-5f0c2a9e.json", "5f0c2a9e-1b3d-4c5e-8f70-a1b2c3d4e5f6"
	path := "/h/.gemini/tmp/demo/chats/" + name
	for _, tc := range []struct {
		quirk, name, path, id string
		prev                  FileStat
		want                  string
	}{
		{"new chat", name, path, id, FileStat{}, "session-" + id + ".json"},
		{"jsonl chat", "session-x.jsonl", "/c/session-x.jsonl", id, FileStat{}, "session-" + id + ".jsonl"},
		{"stored under its file name", name, path, id, FileStat{Name: name, SessionID: id}, name},
		{"another machine's session at the same path", name, path, id,
			FileStat{Name: name, SessionID: "5f0c2a9e-other"}, "session-" + id + ".json"},
		{"no id", name, path, "", FileStat{}, name},
		{"id that is a path", name, path, "../../etc", FileStat{}, name},
		{"subagent's chat", "parent.session-x.jsonl", "/c/parent/session-x.jsonl", id, FileStat{}, "parent.session-x.jsonl"},
	} {
		f := &File{Path: tc.path, prev: tc.prev}
		if got := historySessionName(f, tc.name, tc.id); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.quirk, got, tc.want)
		}
	}
}

// TestCodexHistoryLayout pins which files under Codex's sessions folder
// are sessions and how they are named: a rollout by its own name, any
// other *.jsonl (as @ccusage/codex's sessions/**/*.jsonl finds it) by its
// path under sessions, so that two days' session.jsonl are two sessions.
func TestCodexHistoryLayout(t *testing.T) {
	t.Parallel()
	root := "/h/.codex/sessions"
	for _, tc := range []struct {
		rel, file string
		ok        bool
	}{
		{"2026/11/29/rollout-2026-11-29T19-31-24-01a228ca.jsonl", "rollout-2026-11-29T19-31-24-01a228ca.jsonl", true},
		{"rollout-44444444-4444-4444-8444-444444444444.jsonl", "rollout-44444444-4444-4444-8444-444444444444.jsonl", true},
		{"session.jsonl", "session.jsonl", true},
		{"2026/01/02/session.jsonl", "2026.01.02.session.jsonl", true},
		{"2026/01/02/notes.txt", "", false},
	} {
		l, ok := historyLayout(agents.CodexHistory, root, filepath.Join(root, tc.rel))
		if ok != tc.ok || ok && (l.WorkItemID != "codex" || l.FileName != tc.file) {
			t.Errorf("%s: %+v %v, want codex/%s %v", tc.rel, l, ok, tc.file, tc.ok)
		}
	}
}
