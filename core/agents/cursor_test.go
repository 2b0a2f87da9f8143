package agents

import (
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/event"
)

func TestCursorToolCallsAndUsage(t *testing.T) {
	t.Parallel()
	evs, _ := parseAll(t, filepath.Join(streamsDir, "cursor", "vincent-2026.08.11-edit-shell-tools.jsonl"), Options{Agent: Cursor})
	var shell *event.Event
	for _, ev := range evs {
		if ev.Update.SessionUpdate == event.ToolCallUpdate && ev.Update.ToolCallID == "tool_2" {
			shell = ev
		}
	}
	if shell == nil || shell.Update.ExitCode == nil || *shell.Update.ExitCode != 0 || shell.Update.Status != event.StatusCompleted ||
		shell.Update.ToolKind != event.ToolExecute || shell.Update.EndedAt.IsZero() {
		t.Fatalf("shell update %+v", shell)
	}
	run := runUsage(evs)
	if run == nil || deref(run.PromptTokens) != 17161 || deref(run.CachedTokens) != 17088 || deref(run.CompletionTokens) != 216 {
		t.Fatalf("run usage %+v", run)
	}
}
