package opencode

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// opencodeEvents parses lines as an opencode stream.
func opencodeEvents(t testing.TB, lines ...string) []*event.Event {
	t.Helper()
	return agentstest.EventsOf(t, agents.OpenCode, strings.Join(lines, "\n")+"\n")
}

// TestOpencodeStepUsageAddsUp checks every opencode fixture: there is one
// call usage per step_finish, with a distinct message id, and the usage
// events add up to the steps' own figures (read here with encoding/json):
// prompt = input + cache.read + cache.write, cached = cache.read,
// completion = output + reasoning, and the cost.
func TestOpencodeStepUsageAddsUp(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(agentstest.StreamsDir, "opencode", "*.jsonl"))
	if len(files) < 2 {
		t.Fatalf("found %d opencode fixtures", len(files))
	}
	for _, f := range files {
		var steps int
		var prompt, cached, completion int64
		var cost float64
		for _, l := range bytes.Split(agentstest.MustRead(t, f), []byte("\n")) {
			var ln struct {
				Type string `json:"type"`
				Part struct {
					Cost   float64 `json:"cost"`
					Tokens struct {
						Input, Output, Reasoning int64
						Cache                    struct{ Read, Write int64 }
					} `json:"tokens"`
				} `json:"part"`
			}
			if json.Unmarshal(l, &ln) != nil || ln.Type != "step_finish" {
				continue
			}
			tk := ln.Part.Tokens
			steps++
			prompt += tk.Input + tk.Cache.Read + tk.Cache.Write
			cached += tk.Cache.Read
			completion += tk.Output + tk.Reasoning
			cost += ln.Part.Cost
		}
		evs, _ := agentstest.ParseAll(t, f, agents.Options{Agent: agents.OpenCode})
		us := agentstest.OfKind(evs, event.Usage)
		if len(us) != steps {
			t.Fatalf("%s: %d usage events for %d steps", f, len(us), steps)
		}
		ids := map[string]bool{}
		var gotCost float64
		for _, ev := range us {
			if ev.Update.Scope != event.ScopeCall || ev.MessageID == "" || ids[ev.MessageID] || ev.Update.CostUSD == nil {
				t.Fatalf("%s line %d: usage %+v id %q", f, ev.Line, ev.Update, ev.MessageID)
			}
			ids[ev.MessageID] = true
			gotCost += *ev.Update.CostUSD
		}
		p, c, o := agentstest.CallUsage(evs)
		if p != prompt || c != cached || o != completion || math.Abs(gotCost-cost) > 1e-12 {
			t.Errorf("%s: usage adds to %d/%d/%d $%g, steps say %d/%d/%d $%g", f, p, c, o, gotCost, prompt, cached, completion, cost)
		}
	}
}

func TestOpencodeRunsAreSplitBySessionID(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "opencode", "ortus-1.18.27-three-runs-mcp.jsonl"), agents.Options{Agent: agents.OpenCode})
	starts, results := agentstest.OfKind(evs, event.SessionStart), agentstest.OfKind(evs, event.Result)
	if len(starts) != 3 || len(results) != 3 {
		t.Fatalf("%d session starts and %d results, want 3 runs", len(starts), len(results))
	}
	for i := range starts {
		if results[i].SessionID != starts[i].SessionID || results[i].Line < starts[i].Line {
			t.Errorf("run %d: result of %s on line %d, start of %s on line %d", i, results[i].SessionID, results[i].Line, starts[i].SessionID, starts[i].Line)
		}
		if r := results[i].Update; r.IsError == nil || *r.IsError || r.Subtype != "stop" || r.Text == "" {
			t.Errorf("run %d: result %+v", i, r)
		}
	}
	if results[0].Update.Text != "OK" {
		t.Fatalf("first run's result text %q", results[0].Update.Text)
	}
	for _, ev := range evs {
		if !strings.HasPrefix(ev.SessionID, "ses_") {
			t.Fatalf("line %d: session %q", ev.Line, ev.SessionID)
		}
	}
	mcp := agentstest.OfKind(evs, event.ToolCall)[3].Update
	if mcp.ToolName != "codegraph_codegraph_explore" || mcp.ToolKind != event.ToolOther {
		t.Fatalf("mcp call %+v", mcp)
	}
}

func TestOpencodeToolUseEmitsCallAndUpdate(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "opencode", "takopi-bash-two-steps.jsonl"), agents.Options{Agent: agents.OpenCode})
	calls, upds := agentstest.OfKind(evs, event.ToolCall), agentstest.OfKind(evs, event.ToolCallUpdate)
	if len(calls) != 1 || len(upds) != 1 || calls[0].Line != 2 || upds[0].Line != 2 {
		t.Fatalf("calls %v updates %v", calls, upds)
	}
	c, u := calls[0], upds[0]
	if c.Update.ToolCallID != "r9bQWsNLvOrJGIOz" || u.Update.ToolCallID != c.Update.ToolCallID || c.Update.Title != "Run: echo hello" ||
		c.Update.ToolKind != event.ToolExecute || c.MessageID != "msg_b6b8e702b0012XuEC4bGe0XhKa" {
		t.Fatalf("call %+v", c)
	}
	start, end := time.UnixMilli(1767036061123).UTC(), time.UnixMilli(1767036061173).UTC()
	if !u.Update.StartedAt.Equal(start) || !u.Update.EndedAt.Equal(end) || !c.Timestamp.Equal(start) {
		t.Fatalf("times %v %v %v", u.Update.StartedAt, u.Update.EndedAt, c.Timestamp)
	}
	if u.Update.ExitCode == nil || *u.Update.ExitCode != 0 || u.Update.Status != event.StatusCompleted || u.Update.Content.Text != "hello\n" {
		t.Fatalf("update %+v", u.Update)
	}
	if !u.Timestamp.Equal(time.UnixMilli(1767036061199).UTC()) {
		t.Fatalf("update timestamp %v", u.Timestamp)
	}
}

func TestOpencodeToolErrorAndPermissionRejection(t *testing.T) {
	t.Parallel()
	evs := opencodeEvents(t,
		`{"type":"tool_use","timestamp":1767036061199,"sessionID":"ses_a","part":{"id":"prt_1","sessionID":"ses_a","messageID":"msg_1","type":"tool","callID":"c1","tool":"edit","state":{"status":"error","input":{"filePath":"/w/a.go"},"error":"Error: The user rejected permission to use this specific tool call.","time":{"start":1767036061100,"end":1767036061150}}}}`,
		`{"type":"tool_use","timestamp":1767036062199,"sessionID":"ses_a","part":{"id":"prt_2","sessionID":"ses_a","messageID":"msg_1","type":"tool","callID":"c2","tool":"bash","state":{"status":"error","input":{"command":"false"},"error":"exit status 1","metadata":{"exit":1},"time":{"start":1767036062100,"end":1767036062150}}}}`)
	upds := agentstest.OfKind(evs, event.ToolCallUpdate)
	if len(upds) != 2 {
		t.Fatalf("kinds %v", agentstest.Kinds(evs))
	}
	if u := upds[0].Update; u.Status != event.StatusFailed || !u.ApprovalRequired || !strings.Contains(u.Message, "rejected permission") {
		t.Fatalf("rejected update %+v", u)
	}
	if u := upds[1].Update; u.Status != event.StatusFailed || u.ApprovalRequired || u.ExitCode == nil || *u.ExitCode != 1 {
		t.Fatalf("failed update %+v", u)
	}
}

func TestOpencodeErrorIsFatalOnlyWhenItEndsItsSession(t *testing.T) {
	t.Parallel()
	errLine := `{"type":"error","timestamp":1767036070000,"sessionID":"ses_a","error":{"name":"APIError","data":{"message":"Rate limit exceeded","statusCode":429}}}`
	step := func(ses string) string {
		return `{"type":"step_start","timestamp":1767036071000,"sessionID":"` + ses + `","part":{"id":"prt_9","sessionID":"` + ses + `","messageID":"msg_9","type":"step-start"}}`
	}
	tests := []struct {
		name   string
		lines  []string
		fatal  bool
		result bool
	}{
		{"last line", []string{step("ses_a"), errLine}, true, true},
		{"session goes on", []string{step("ses_a"), errLine, step("ses_a")}, false, false},
		{"next run starts", []string{step("ses_a"), errLine, step("ses_b")}, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := opencodeEvents(t, tc.lines...)
			errs, res := agentstest.OfKind(evs, event.Error), agentstest.OfKind(evs, event.Result)
			if len(errs) != 1 || errs[0].Update.Fatal != tc.fatal || errs[0].Line != 2 || errs[0].Update.Message != "Rate limit exceeded" {
				t.Fatalf("errors %+v", errs)
			}
			if errs[0].SessionID != "ses_a" || errs[0].Extra["name"] != "APIError" {
				t.Fatalf("error %+v", errs[0])
			}
			if (len(res) == 1) != tc.result {
				t.Fatalf("results %v", res)
			}
			if tc.result && (res[0].SessionID != "ses_a" || !*res[0].Update.IsError) {
				t.Fatalf("result %+v", res[0])
			}
		})
	}
}

func TestOpencodeTwoStepsOfOneMessageKeepTheirUsage(t *testing.T) {
	t.Parallel()
	fin := `{"type":"step_finish","timestamp":1,"sessionID":"ses_a","part":{"id":"prt_X","sessionID":"ses_a","messageID":"msg_1","type":"step-finish","reason":"tool-calls","cost":0.5,"tokens":{"input":10,"output":2,"reasoning":1,"cache":{"read":4,"write":3}}}}`
	evs := opencodeEvents(t, fin, fin)
	us := agentstest.OfKind(evs, event.Usage)
	if len(us) != 2 || us[0].MessageID == us[1].MessageID {
		t.Fatalf("usage %v", us)
	}
	if u := us[0].Update; agentstest.Deref(u.PromptTokens) != 17 || agentstest.Deref(u.CachedTokens) != 4 || agentstest.Deref(u.CompletionTokens) != 3 || *u.CostUSD != 0.5 {
		t.Fatalf("usage %+v", u)
	}
	if len(agentstest.OfKind(evs, event.Result)) != 0 {
		t.Fatal("tool-calls step ended the run")
	}
}

func TestOpencodeReasoningAndUnknownLines(t *testing.T) {
	t.Parallel()
	evs, st := agentstest.ParseBytes(t, []byte(strings.Join([]string{
		`{"type":"step_start","timestamp":1,"sessionID":"ses_a","part":{"id":"p0","sessionID":"ses_a","messageID":"m","type":"step-start"}}`,
		`{"type":"reasoning","timestamp":2,"sessionID":"ses_a","part":{"id":"p1","sessionID":"ses_a","messageID":"m","type":"reasoning","text":"thinking","time":{"start":1,"end":2}}}`,
		`{"type":"permission","timestamp":3,"sessionID":"ses_a"}`,
	}, "\n")), agents.Options{Agent: agents.OpenCode})
	want := []event.Kind{event.SessionStart, event.AgentThoughtChunk, event.Raw}
	if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
	if st.QuietLines != 0 {
		t.Fatalf("quiet %d: the first step_start yields the session start", st.QuietLines)
	}
}

func TestOpencodeClaimsOnlyItsOwnLines(t *testing.T) {
	t.Parallel()
	p := opencodeParser{}
	if !p.Claims([]byte(`{"type":"step_start","timestamp":1,"sessionID":"ses","part":{"type":"step-start"}}`)) {
		t.Error("does not claim step_start")
	}
	for _, l := range []string{
		`{"type":"tool_use","timestamp":"2025-12-17T21:06:00.480Z","tool_name":"write_file","tool_id":"w","parameters":{}}`,
		`{"type":"error","timestamp":1,"sessionID":"ses","error":{"name":"APIError"}}`,
		`{"type":"assistant","session_id":"s","message":{"content":[]}}`,
	} {
		if p.Claims([]byte(l)) {
			t.Errorf("claims %s", l)
		}
	}
}

func FuzzParseOpenCode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(agentstest.StreamsDir, "opencode", "*.jsonl"))
	agentstest.AddFileSeeds(f, true, files...)
	f.Add([]byte(`{"type":"error","timestamp":1,"sessionID":"ses_a","error":{"name":"APIError"}}` + "\n" + `{"type":"x","sessionID":"ses_a"}`))
	agentstest.FuzzEveryLine(f, agents.OpenCode)
}

func TestOpencodeRunningToolHasNoUpdateYet(t *testing.T) {
	t.Parallel()
	evs := opencodeEvents(t,
		`{"type":"tool_use","timestamp":5,"sessionID":"ses_a","part":{"id":"p","sessionID":"ses_a","messageID":"m","type":"tool","callID":"c","tool":"codesearch","state":{"status":"running","input":{"query":"parse"},"time":{"start":4}}}}`)
	want := []event.Kind{event.SessionStart, event.ToolCall}
	if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
	if c := evs[1].Update; c.ToolKind != event.ToolSearch || c.Title != "Search: parse" || c.Status != event.StatusInProgress {
		t.Fatalf("call %+v", c)
	}
}
