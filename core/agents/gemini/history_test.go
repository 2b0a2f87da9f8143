package gemini

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

var builtGemini = agentstest.BuiltDir + "/gemini/session-2026-03-03T09-00-5f0c2a9e.jsonl"

func TestGeminiHistoryFiles(t *testing.T) {
	for _, f := range agentstest.HistoryFiles(t, "gemini") {
		if strings.HasSuffix(f, ".json") {
			continue // the older format, read through GeminiLegacyLines
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			evs := agentstest.CheckHistoryFile(t, f, agents.GeminiHistory)
			if len(evs) == 0 || evs[0].Update.SessionUpdate != event.SessionStart || evs[0].SessionID == "" {
				t.Fatalf("first event is not a session start with a session id: %+v", evs[0])
			}
		})
	}
}

// TestGeminiHistoryRewritesAndRewinds pins the chat recording's update
// rules: a message written again under its id replaces the first record
// (m2 gains its tool call, counted once), and $rewindTo drops the message
// it names and all after it (m4, m5 and their usage).
func TestGeminiHistoryRewritesAndRewinds(t *testing.T) {
	evs, _ := agentstest.ParseAll(t, builtGemini, agents.Options{Agent: agents.GeminiHistory})
	var msgs []string
	calls := map[string]event.ToolStatus{}
	for _, ev := range evs {
		if ev.MessageID != "" && (len(msgs) == 0 || msgs[len(msgs)-1] != ev.MessageID) {
			msgs = append(msgs, ev.MessageID)
		}
		if ev.Update.SessionUpdate == event.ToolCallUpdate {
			calls[ev.Update.ToolCallID] = ev.Update.Status
		}
	}
	if got := strings.Join(msgs, " "); got != "m1 m2 m3 m6 m7" {
		t.Fatalf("messages %q, want m1 m2 m3 m6 m7", got)
	}
	if len(calls) != 1 || calls["run_shell_command-1772528827000-1"] != event.StatusCompleted {
		t.Fatalf("tool results %v", calls)
	}
	n, prompt, cached, output := agentstest.UsageSum(evs)
	// m2 thought 120 tokens, counted as output (geminiCounts).
	if n != 3 || prompt != 8123+8390+8450 || cached != 0+8100+8300 || output != 42+120+15+5 {
		t.Fatalf("usage: %d calls, prompt %d, cached %d, output %d", n, prompt, cached, output)
	}
}

// TestGeminiLegacyLines reads an older session-*.json document through
// the JSONL parser.
func TestGeminiLegacyLines(t *testing.T) {
	doc := `{
  "sessionId": "s-legacy",
  "projectHash": "abc",
  "startTime": "2025-09-01T10:00:00.000Z",
  "lastUpdated": "2025-09-01T10:01:00.000Z",
  "messages": [
    {"id": "u1", "timestamp": "2025-09-01T10:00:01.000Z", "type": "user", "content": "hello"},
    {"id": "g1", "timestamp": "2025-09-01T10:00:03.000Z", "type": "gemini", "content": "Hi.",
     "tokens": {"input": 100, "output": 3, "cached": 0, "thoughts": 0, "tool": 0, "total": 103}, "model": "gemini-2.5-flash"}
  ]
}`
	lines, err := GeminiLegacyLines([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	evs, st := agentstest.ParseBytes(t, lines, agents.Options{})
	if agents.Kind(st.Agent) != agents.GeminiHistory {
		t.Fatalf("sniffed %s", st.Agent)
	}
	if k := agentstest.Kinds(evs); !agentstest.EqualKinds(k, []event.Kind{event.SessionStart, event.UserMessageChunk, event.AgentMessageChunk, event.Usage}) {
		t.Fatalf("kinds %v", k)
	}
	if _, err := GeminiLegacyLines([]byte("{not json")); err == nil {
		t.Fatal("a broken document gave no error")
	}
}

func FuzzParseGeminiHistory(f *testing.F) {
	agentstest.AddFileSeeds(f, true, builtGemini)
	agentstest.FuzzEveryLine(f, agents.GeminiHistory)
}
