package claude

import (
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// TestClaudeUsageAddsUpToResult checks every Claude Code fixture: the
// per-message usage (last snapshot per message id, main agent only) adds
// up to the result line's prompt and cache-read totals. Output tokens in
// the per-message snapshots are partial (Claude Code prints the message
// before its final message_delta), so they may only fall short of the
// result's figure, never exceed it.
func TestClaudeUsageAddsUpToResult(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(agentstest.StreamsDir, "claude", "*.jsonl"))
	if len(files) < 8 {
		t.Fatalf("found %d claude fixtures", len(files))
	}
	for _, f := range files {
		evs, _ := agentstest.ParseAll(t, f, agents.Options{Agent: agents.Claude})
		run := agentstest.RunUsage(evs)
		if run == nil || run.PromptTokens == nil || run.CompletionTokens == nil || run.CostUSD == nil {
			t.Fatalf("%s: no complete run usage: %+v", f, run)
		}
		prompt, cached, completion := agentstest.CallUsage(evs)
		if prompt != *run.PromptTokens || cached != agentstest.Deref(run.CachedTokens) {
			t.Errorf("%s: calls add to prompt %d cached %d, result says %d / %d",
				filepath.Base(f), prompt, cached, *run.PromptTokens, agentstest.Deref(run.CachedTokens))
		}
		if completion > *run.CompletionTokens {
			t.Errorf("%s: call output %d exceeds result output %d", filepath.Base(f), completion, *run.CompletionTokens)
		}
	}
}

func TestClaudePermissionDenialIsApprovalNotFailure(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "claude", "vincent-2.1.226-permission-denied-tool-error.jsonl"), agents.Options{Agent: agents.Claude})
	var updates int
	for _, ev := range evs {
		u := ev.Update
		if u.SessionUpdate == event.ToolCallUpdate && u.ToolCallID == "toolu_01NfZSDqXQKXwt59MWGhoqgw" {
			updates++
			if !u.ApprovalRequired {
				t.Errorf("line %d: update not marked approval-required", ev.Line)
			}
		}
	}
	if updates == 0 {
		t.Fatal("no update for the denied call")
	}
}

func TestClaudeIsErrorWinsOverSubtype(t *testing.T) {
	t.Parallel()
	line := `{"type":"result","subtype":"success","is_error":true,"terminal_reason":"api_error","api_error_status":429,"result":"You've hit your session limit","session_id":"s"}`
	evs, _ := agentstest.ParseBytes(t, []byte(line), agents.Options{Agent: agents.Claude})
	if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, []event.Kind{event.Error, event.Result}) {
		t.Fatalf("kinds %v", got)
	}
	if !evs[0].Update.Fatal || *evs[1].Update.IsError != true || evs[1].Extra["terminal_reason"] != "api_error" {
		t.Fatalf("error %+v result %+v", evs[0].Update, evs[1])
	}
}

func TestClaudeSubagentLinesCarryParent(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "claude", "claude-orchestrator-task-subagent-reserialized.jsonl"), agents.Options{Agent: agents.Claude})
	var child int
	for _, ev := range evs {
		if ev.ParentToolCallID != "" {
			child++
		}
	}
	if child < 71 {
		t.Fatalf("%d events carry a parent tool call, want at least the 71 subagent lines", child)
	}
}

func TestClaudeImageResultIsKeptAsImage(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "claude", "evolve-2.1.5-skill-bash-read-image.jsonl"), agents.Options{Agent: agents.Claude})
	for _, ev := range evs {
		if c := ev.Update.Content; c != nil && c.Type == "image" {
			if c.MimeType == "" || len(c.Data) < 100 || c.Text != "" {
				t.Fatalf("image content %q %d bytes", c.MimeType, len(c.Data))
			}
			return
		}
	}
	t.Fatal("no image content kept")
}

func TestClaudeToolKindsAndTitles(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "claude", "evolve-2.1.19-daytona-x01-prefixed.jsonl"), agents.Options{Agent: agents.Claude})
	for _, ev := range evs {
		u := ev.Update
		if u.SessionUpdate == event.ToolCall && u.ToolName == "Bash" {
			if u.ToolKind != event.ToolExecute || u.Title != "Run: pwd" {
				t.Fatalf("kind %s title %q", u.ToolKind, u.Title)
			}
			return
		}
	}
	t.Fatal("no Bash call")
}

func TestToolKindOf(t *testing.T) {
	t.Parallel()
	tests := map[string]event.ToolKind{
		"Read": event.ToolRead, "Edit": event.ToolEdit, "Write": event.ToolEdit, "NotebookEdit": event.ToolEdit,
		"Glob": event.ToolSearch, "Grep": event.ToolSearch, "LS": event.ToolSearch, "Bash": event.ToolExecute,
		"BashOutput": event.ToolExecute, "KillShell": event.ToolExecute, "Task": event.ToolThink,
		"WebFetch": event.ToolFetch, "WebSearch": event.ToolFetch, "ExitPlanMode": event.ToolSwitchMode,
		"mcp__exa__web_search_exa": event.ToolOther, "Frobnicate": event.ToolOther,
		"run_shell_command": event.ToolExecute, "read_file": event.ToolRead, "write_file": event.ToolEdit,
	}
	for name, want := range tests {
		if got := agents.ToolKindOf(name); got != want {
			t.Errorf("ToolKindOf(%q) = %s, want %s", name, got, want)
		}
	}
}

func FuzzParseClaude(f *testing.F) {
	for _, dir := range []string{"claude", "cursor", "qwen"} {
		files, _ := filepath.Glob(filepath.Join(agentstest.StreamsDir, dir, "*.jsonl"))
		agentstest.AddFileSeeds(f, false, files...)
	}
	agentstest.FuzzEveryLine(f, agents.Claude, agents.Cursor, agents.Qwen)
}
