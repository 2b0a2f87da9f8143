package claude

import (
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// TestHistoryFixtures parses every on-disk transcript with sniffing, checks
// the attribution and that no line is left raw, and compares the events with
// a golden file.
func TestHistoryFixtures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(agentstest.HistoryDir, "claude", "*.jsonl"))
	if agents.ClaudeHistory.Harness() != agents.Claude {
		t.Fatalf("%s is not Claude Code's", agents.ClaudeHistory)
	}
	if len(files) < 2 {
		t.Fatalf("found %d claude history fixtures", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			agentstest.CheckHistoryFile(t, f, agents.ClaudeHistory)
		})
	}
}

// TestHistoryCountsAMessageOnce pins ccusage's rule: one message written
// once per content block is counted once (same message and request id); a
// line lacking a request id is counted on its own.
func TestHistoryCountsAMessageOnce(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.HistoryDir, "claude", "spotter-subagent-agent-aac57f5.jsonl"), agents.Options{Agent: agents.ClaudeHistory})
	var keys []string
	for _, ev := range evs {
		if ev.Update.SessionUpdate == event.Usage {
			keys = append(keys, ev.MessageID)
		}
	}
	// Three messages, written over 20 assistant lines.
	if len(keys) != 3 || keys[0] != "msg_01XnP8V9m3LNbxPnXbuinNKs" {
		t.Fatalf("usage keys %v", keys)
	}

	line := `{"parentUuid":null,"sessionId":"s","type":"assistant","timestamp":"2026-01-01T00:00:00Z","message":{"id":"m1","model":"claude-sonnet-4-5","content":[{"type":"text","text":"a"}],"usage":{"input_tokens":1,"output_tokens":2}}}`
	evs, _ = agentstest.ParseBytes(t, []byte(line+"\n"+line+"\n"), agents.Options{Agent: agents.ClaudeHistory})
	var n int
	for _, ev := range evs {
		if ev.Update.SessionUpdate == event.Usage {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("lines without request id counted %d times, want 2", n)
	}
}

// TestHistoryAPIErrorIsAnError pins the transcript's record of a failed API
// call (isApiErrorMessage, model "<synthetic>", the shape Claude Code
// writes for a rate limit) as an error, not as the model's words.
func TestHistoryAPIErrorIsAnError(t *testing.T) {
	t.Parallel()
	line := `{"parentUuid":"p","isSidechain":false,"type":"assistant","isApiErrorMessage":true,"error":"rate_limit",` +
		`"timestamp":"2026-04-17T08:10:28.297Z","sessionId":"s","message":{"id":"m9","model":"<synthetic>","role":"assistant",` +
		`"stop_reason":"stop_sequence","usage":{"input_tokens":0,"output_tokens":0},` +
		`"content":[{"type":"text","text":"You've hit your limit · resets 1:20am (Europe/Berlin)"}]}}`
	evs, _ := agentstest.ParseBytes(t, []byte(line+"\n"), agents.Options{Agent: agents.ClaudeHistory})
	var kinds []event.Kind
	var msg string
	for _, ev := range evs {
		kinds = append(kinds, ev.Update.SessionUpdate)
		if ev.Update.SessionUpdate == event.Error {
			msg = ev.Update.Message
		}
	}
	if len(kinds) != 2 || kinds[0] != event.SessionStart || kinds[1] != event.Error || msg != "You've hit your limit · resets 1:20am (Europe/Berlin)" {
		t.Errorf("events %v, error %q; want the session start and the error", kinds, msg)
	}
}

func TestHistorySidechainCarriesParentCall(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.HistoryDir, "claude", "spotter-subagent-agent-aac57f5.jsonl"), agents.Options{Agent: agents.ClaudeHistory})
	if evs[0].Update.SessionUpdate != event.SessionStart || evs[0].Extra["agentId"] != "aac57f5" {
		t.Fatalf("first event %+v", evs[0])
	}
}

func FuzzParseClaudeHistory(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(agentstest.HistoryDir, "claude", "*.jsonl"))
	agentstest.AddFileSeeds(f, false, files...)
	agentstest.FuzzEveryLine(f, agents.ClaudeHistory)
}
