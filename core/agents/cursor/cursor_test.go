package cursor

import (
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

func TestCursorToolCallsAndUsage(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "cursor", "vincent-2026.08.11-edit-shell-tools.jsonl"), agents.Options{Agent: agents.Cursor})
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
	run := agentstest.RunUsage(evs)
	if run == nil || agentstest.Deref(run.PromptTokens) != 17161 || agentstest.Deref(run.CachedTokens) != 17088 || agentstest.Deref(run.CompletionTokens) != 216 {
		t.Fatalf("run usage %+v", run)
	}
}
