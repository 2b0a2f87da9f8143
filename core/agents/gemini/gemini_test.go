package gemini

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// geminiEvents parses lines as a gemini stream.
func geminiEvents(t testing.TB, lines ...string) []*event.Event {
	t.Helper()
	return agentstest.EventsOf(t, agents.Gemini, strings.Join(lines, "\n")+"\n")
}

// TestGeminiUsageMatchesResultStats checks every gemini fixture with a
// result line: its stats (read here with encoding/json) become exactly one
// run usage with the same figures, and duration_ms the result's duration.
func TestGeminiUsageMatchesResultStats(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(agentstest.StreamsDir, "gemini", "*.jsonl"))
	if len(files) < 6 {
		t.Fatalf("found %d gemini fixtures", len(files))
	}
	var checked int
	for _, f := range files {
		var stats map[string]int64
		var failed bool
		for _, l := range bytes.Split(agentstest.MustRead(t, f), []byte("\n")) {
			// Newer CLIs (0.61) nest a per-model breakdown in stats:
			// keep the numbers only.
			var ln struct {
				Type   string                     `json:"type"`
				Status string                     `json:"status"`
				Stats  map[string]json.RawMessage `json:"stats"`
			}
			if json.Unmarshal(l, &ln) == nil && ln.Type == "result" {
				failed = ln.Status == "error"
				stats = map[string]int64{}
				for k, v := range ln.Stats {
					var n int64
					if json.Unmarshal(v, &n) == nil {
						stats[k] = n
					}
				}
			}
		}
		evs, _ := agentstest.ParseAll(t, f, agents.Options{Agent: agents.Gemini})
		us, res := agentstest.OfKind(evs, event.Usage), agentstest.OfKind(evs, event.Result)
		if stats == nil {
			if len(us) != 0 || len(res) != 0 {
				t.Errorf("%s: no result line, but %d usage and %d result events", f, len(us), len(res))
			}
			continue
		}
		checked++
		if len(us) != 1 || len(res) != 1 {
			t.Fatalf("%s: %d usage and %d result events", f, len(us), len(res))
		}
		u := us[0].Update
		if u.Scope != event.ScopeRun || agentstest.Deref(u.PromptTokens) != stats["input_tokens"] || agentstest.Deref(u.CompletionTokens) != stats["output_tokens"] {
			t.Errorf("%s: usage %+v, stats %v", f, u, stats)
		}
		if c, ok := stats["cached"]; ok != (u.CachedTokens != nil) || agentstest.Deref(u.CachedTokens) != c {
			t.Errorf("%s: cached %v, stats %v", f, u.CachedTokens, stats)
		}
		if in, ok := stats["input"]; ok && in+stats["cached"] != *u.PromptTokens {
			t.Errorf("%s: input %d + cached %d != prompt %d", f, in, stats["cached"], *u.PromptTokens)
		}
		if u.UsageExtra["total_tokens"] != stats["total_tokens"] || u.UsageExtra["tool_calls"] != stats["tool_calls"] {
			t.Errorf("%s: extra %v, stats %v", f, u.UsageExtra, stats)
		}
		if r := res[0].Update; agentstest.Deref(r.DurationMs) != stats["duration_ms"] || r.IsError == nil || *r.IsError != failed {
			t.Errorf("%s: result %+v", f, r)
		}
		// The tool calls the stats count are the ones in the stream.
		if n := int64(len(agentstest.OfKind(evs, event.ToolCall))); n != stats["tool_calls"] {
			t.Errorf("%s: %d tool calls, stats say %d", f, n, stats["tool_calls"])
		}
	}
	if checked < 5 {
		t.Fatalf("only %d fixtures had a result", checked)
	}
}

func TestGeminiDeltasOfOneResponseShareAMessageID(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "gemini", "evolve-run2-resumed-four-tools.jsonl"), agents.Options{Agent: agents.Gemini})
	byLine := map[int]string{}
	for _, ev := range evs {
		if ev.Update.SessionUpdate == event.AgentMessageChunk || ev.Update.SessionUpdate == event.ToolCall {
			if ev.MessageID == "" {
				t.Fatalf("line %d: no message id", ev.Line)
			}
			byLine[ev.Line] = ev.MessageID
		}
	}
	// Response 1: text on line 3 and its two tool_use lines; response 2:
	// line 8 and its tools 9, 10; response 3: the deltas of 13-16.
	for _, group := range [][]int{{3, 4, 5}, {8, 9, 10}, {13, 14, 15, 16}} {
		for _, l := range group[1:] {
			if byLine[l] != byLine[group[0]] {
				t.Errorf("line %d id %q, line %d id %q", l, byLine[l], group[0], byLine[group[0]])
			}
		}
	}
	if byLine[3] == byLine[8] || byLine[8] == byLine[13] {
		t.Fatalf("responses share an id: %v", byLine)
	}
	res := agentstest.OfKind(evs, event.Result)[0].Update
	if res.Text != "Yes. You asked me to create `helloworld.txt`. I have updated `output/helloworld.txt` with '1234' and created `output/dcf_model.xlsx` with a 5-year DCF model." {
		t.Fatalf("result text %q", res.Text)
	}
}

func TestGeminiParallelToolsLinkByToolID(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "gemini", "evolve-dec2025-resume-turn1-parallel-tools.jsonl"), agents.Options{Agent: agents.Gemini})
	want := []event.Kind{event.SessionStart, event.UserMessageChunk, event.ToolCall, event.ToolCall,
		event.ToolCallUpdate, event.ToolCallUpdate, event.AgentMessageChunk, event.AgentMessageChunk, event.Usage, event.Result}
	if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
	if evs[2].Update.ToolCallID != evs[4].Update.ToolCallID || evs[3].Update.ToolCallID != evs[5].Update.ToolCallID {
		t.Fatal("results not linked to their calls")
	}
	c := evs[2].Update
	if c.ToolName != "write_file" || c.ToolKind != event.ToolEdit || c.Title != "Write: output/session-test.txt" ||
		len(c.Locations) != 1 || c.Locations[0].Path != "output/session-test.txt" {
		t.Fatalf("call %+v", c)
	}
	if evs[4].Update.Content != nil {
		t.Fatalf("absent output became content %+v", evs[4].Update.Content)
	}
	if !strings.HasPrefix(evs[5].Update.Content.Text, "Okay, I've remembered") {
		t.Fatalf("output %+v", evs[5].Update.Content)
	}
	want0 := time.Date(2025, 12, 17, 20, 59, 38, 576e6, time.UTC)
	if !evs[0].Timestamp.Equal(want0) || evs[0].Model != "gemini-3-flash-preview" || evs[0].SessionID != "a5fb82eb-7553-4e9c-87da-2cbf0af52795" {
		t.Fatalf("session start %+v", evs[0])
	}
}

func TestGeminiToolResultErrors(t *testing.T) {
	t.Parallel()
	evs := geminiEvents(t,
		`{"type":"tool_use","timestamp":"2026-01-15T02:53:44.369Z","tool_name":"run_shell_command","tool_id":"a","parameters":{"command":"rm -rf /"}}`,
		`{"type":"tool_result","timestamp":"2026-01-15T02:53:44.400Z","tool_id":"a","status":"error","error":{"type":"policy_violation","message":"Tool execution denied by policy."}}`,
		`{"type":"tool_use","timestamp":"2026-01-15T02:53:45.000Z","tool_name":"read_file","tool_id":"b","parameters":{"file_path":"nope"}}`,
		`{"type":"tool_result","timestamp":"2026-01-15T02:53:45.100Z","tool_id":"b","status":"error","output":"","error":{"type":"file_not_found","message":"File not found: nope"}}`)
	upds := agentstest.OfKind(evs, event.ToolCallUpdate)
	if len(upds) != 2 {
		t.Fatalf("kinds %v", agentstest.Kinds(evs))
	}
	if u := upds[0].Update; u.Status != event.StatusFailed || !u.ApprovalRequired || u.Message != "Tool execution denied by policy." {
		t.Fatalf("policy update %+v", u)
	}
	if u := upds[1].Update; u.Status != event.StatusFailed || u.ApprovalRequired || u.Message != "File not found: nope" || string(u.RawOutput) == "" {
		t.Fatalf("failed update %+v", u)
	}
}

func TestGeminiErrorEventsAndFailedResult(t *testing.T) {
	t.Parallel()
	evs := geminiEvents(t,
		`{"type":"init","timestamp":"2026-01-15T02:53:26.572Z","session_id":"s","model":"gemini-2.5-pro"}`,
		`{"type":"error","timestamp":"2026-01-15T02:53:27.000Z","severity":"warning","message":"Loop detected, stopping execution"}`,
		`{"type":"result","timestamp":"2026-01-15T02:53:28.000Z","status":"error","error":{"type":"FatalTurnLimitedError","message":"Reached max session turns"},"stats":{"total_tokens":10,"input_tokens":8,"output_tokens":2,"cached":0,"input":8,"duration_ms":1400,"tool_calls":0}}`)
	want := []event.Kind{event.SessionStart, event.Error, event.Usage, event.Error, event.Result}
	if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
	if e := evs[1]; e.Update.Fatal || e.Extra["severity"] != "warning" {
		t.Fatalf("warning %+v", e)
	}
	if e := evs[3].Update; !e.Fatal || e.Message != "Reached max session turns" {
		t.Fatalf("result error %+v", e)
	}
	if r := evs[4].Update; r.IsError == nil || !*r.IsError || r.Subtype != "error" || agentstest.Deref(r.DurationMs) != 1400 {
		t.Fatalf("result %+v", r)
	}
	if evs[2].Model != "gemini-2.5-pro" {
		t.Fatalf("usage model %q", evs[2].Model)
	}
}

func TestGeminiStalledStreamHasNoResult(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "gemini", "evolve-background-truncated-no-result.jsonl"), agents.Options{Agent: agents.Gemini})
	want := []event.Kind{event.SessionStart, event.UserMessageChunk, event.AgentMessageChunk, event.ToolCall}
	if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
}

func TestGeminiClaimsOnlyItsOwnLines(t *testing.T) {
	t.Parallel()
	p := geminiParser{}
	for _, l := range []string{
		`{"type":"init","timestamp":"2025-12-17T21:05:58.126Z","session_id":"s","model":"gemini-3-flash-preview"}`,
		`{"type":"tool_use","timestamp":"2025-12-17T21:06:00.480Z","tool_name":"write_file","tool_id":"write_file-1","parameters":{}}`,
		`{"type":"message","timestamp":"2025-12-17T21:05:58.128Z","role":"user","content":"hi"}`,
	} {
		if !p.Claims([]byte(l)) {
			t.Errorf("does not claim %s", l)
		}
	}
	for _, l := range []string{
		`{"type":"message","role":"assistant","id":"m1","text":"hi","timestamp":1760000000000}`,
		`{"type":"tool_result","id":"t1","messageId":"m1","isError":false,"value":"x","timestamp":1760000000000}`,
		`{"type":"system","subtype":"init","session_id":"s","model":"claude"}`,
		`{"type":"result","timestamp":"2025-12-17T21:05:58.126Z","status":"success"}`,
		`{"type":"thread.started","thread_id":"x"}`,
	} {
		if p.Claims([]byte(l)) {
			t.Errorf("claims %s", l)
		}
	}
}

func FuzzParseGemini(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(agentstest.StreamsDir, "gemini", "*.jsonl"))
	agentstest.AddFileSeeds(f, true, files...)
	agentstest.FuzzEveryLine(f, agents.Gemini)
}
