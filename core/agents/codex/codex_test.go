package codex

import (
	"bytes"
	"encoding/json"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// codexEvents parses lines as a codex stream.
func codexEvents(t testing.TB, lines ...string) []*event.Event {
	t.Helper()
	return agentstest.EventsOf(t, agents.Codex, strings.Join(lines, "\n")+"\n")
}

// TestCodexUsageIsTheLastTurnCompleted checks every codex fixture: each
// turn.completed becomes one run usage whose figures are the line's own
// (read here with encoding/json into a map), and the run total the summary
// takes, the last one, is the last turn.completed's.
func TestCodexUsageIsTheLastTurnCompleted(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(agentstest.StreamsDir, "codex", "*.jsonl"))
	if len(files) < 6 {
		t.Fatalf("found %d codex fixtures", len(files))
	}
	var withUsage int
	for _, f := range files {
		data := agentstest.MustRead(t, f)
		var want []map[string]int64
		for _, l := range bytes.Split(data, []byte("\n")) {
			var ln struct {
				Type  string           `json:"type"`
				Usage map[string]int64 `json:"usage"`
			}
			if json.Unmarshal(l, &ln) == nil && ln.Type == "turn.completed" {
				want = append(want, ln.Usage)
			}
		}
		evs, _ := agentstest.ParseAll(t, f, agents.Options{Agent: agents.Codex})
		var got []*event.Update
		for _, ev := range agentstest.OfKind(evs, event.Usage) {
			if ev.Update.Scope != event.ScopeRun {
				t.Errorf("%s: usage of scope %s, codex prints thread totals", f, ev.Update.Scope)
			}
			got = append(got, &ev.Update)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d usage events for %d turn.completed lines", f, len(got), len(want))
		}
		for i, w := range want {
			u := got[i]
			if agentstest.Deref(u.PromptTokens) != w["input_tokens"] || agentstest.Deref(u.CachedTokens) != w["cached_input_tokens"] ||
				agentstest.Deref(u.CompletionTokens) != w["output_tokens"] {
				t.Errorf("%s: usage %+v, line says %v", f, u, w)
			}
			for k, v := range w {
				switch k {
				case "input_tokens", "cached_input_tokens", "output_tokens":
				default:
					if u.UsageExtra[k] != v {
						t.Errorf("%s: extra %s = %d, line says %d", f, k, u.UsageExtra[k], v)
					}
				}
			}
		}
		if len(want) > 0 {
			withUsage++
			if run := agentstest.RunUsage(evs); agentstest.Deref(run.PromptTokens) != want[len(want)-1]["input_tokens"] {
				t.Errorf("%s: last run usage %+v", f, run)
			}
		}
	}
	if withUsage < 4 {
		t.Fatalf("only %d fixtures had turn.completed usage", withUsage)
	}
}

func TestCodexTopLevelErrorIsFatalOnlyAsTheLastLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		lines []string
		fatal bool
	}{
		{"error then nothing", []string{`{"type":"turn.started"}`, `{"type":"error","message":"stream disconnected"}`}, true},
		{"error then more", []string{`{"type":"error","message":"stream disconnected"}`, `{"type":"turn.started"}`}, false},
		{"reconnecting last", []string{`{"type":"error","message":"Reconnecting... 2/5 (busy)"}`}, false},
		{"error then stderr capture", []string{`{"type":"error","message":"boom"}`, `{"type":"sift.stderr","text":"panic"}`}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errs := agentstest.OfKind(codexEvents(t, tc.lines...), event.Error)
			if len(errs) != 1 {
				t.Fatalf("%d error events", len(errs))
			}
			if errs[0].Update.Fatal != tc.fatal {
				t.Fatalf("fatal = %v, want %v", errs[0].Update.Fatal, tc.fatal)
			}
			if errs[0].Line == 0 || !strings.Contains(tc.lines[errs[0].Line-1], `"error"`) {
				t.Fatalf("error stamped with line %d", errs[0].Line)
			}
		})
	}
}

func TestCodexErrorFollowedByAnUnknownLineKeepsThatLineRaw(t *testing.T) {
	t.Parallel()
	evs := codexEvents(t, `{"type":"error","message":"boom"}`, `{"type":"thread.renamed","name":"x"}`)
	if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, []event.Kind{event.Error, event.Raw}) {
		t.Fatalf("kinds %v", got)
	}
	if evs[0].Update.Fatal || evs[0].Line != 1 || evs[1].Line != 2 {
		t.Fatalf("events %+v %+v", evs[0], evs[1])
	}
}

func TestCodexTurnFailedIsTheFatalVerdict(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "codex", "ortus-0.144.6-stubmodel-reconnect-turn-failed.jsonl"), agents.Options{Agent: agents.Codex})
	var fatal []*event.Event
	for _, ev := range agentstest.OfKind(evs, event.Error) {
		if ev.Update.Fatal {
			fatal = append(fatal, ev)
		}
	}
	if len(fatal) != 1 || fatal[0].Line != 10 {
		t.Fatalf("fatal errors %v, want only turn.failed on line 10", fatal)
	}
	if n := len(agentstest.OfKind(evs, event.Error)); n != 8 {
		t.Fatalf("%d error events, want 8 (item error, 5 reconnects, final error, turn.failed)", n)
	}
	res := agentstest.OfKind(evs, event.Result)
	if len(res) != 1 || res[0].Update.IsError == nil || !*res[0].Update.IsError || res[0].Update.Subtype != "turn.failed" {
		t.Fatalf("result %+v", res)
	}
	if len(agentstest.OfKind(evs, event.Usage)) != 0 {
		t.Fatal("usage without turn.completed")
	}
}

func TestCodexJSONEncodedAPIErrorIsUnwrapped(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "codex", "vincent-turn-failed-model-400.jsonl"), agents.Options{Agent: agents.Codex})
	errs := agentstest.OfKind(evs, event.Error)
	last := errs[len(errs)-1]
	if !strings.HasPrefix(last.Update.Message, "The 'gpt-5.6-sol' model requires a newer version") || !last.Update.Fatal {
		t.Fatalf("turn.failed error %+v", last.Update)
	}
	if last.Extra["status"] != 400 || last.Extra["errorType"] != "invalid_request_error" {
		t.Fatalf("extra %v", last.Extra)
	}
	if errs[0].Update.Fatal || !strings.HasPrefix(errs[0].Update.Message, "Model metadata") {
		t.Fatalf("item error %+v", errs[0].Update)
	}
}

func TestCodexCompletedOnlyFileChangeEmitsCallAndUpdate(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "codex", "evolve-run1-reasoning-file-change.jsonl"), agents.Options{Agent: agents.Codex})
	calls, upds := agentstest.OfKind(evs, event.ToolCall), agentstest.OfKind(evs, event.ToolCallUpdate)
	if len(calls) != 1 || len(upds) != 1 || calls[0].Line != 4 || upds[0].Line != 4 {
		t.Fatalf("calls %v updates %v", calls, upds)
	}
	c := calls[0].Update
	if c.ToolKind != event.ToolEdit || c.ToolName != "file_change" || len(c.Locations) != 1 ||
		c.Locations[0].Path != "/home/user/workspace/output/helloworld.txt" || c.ToolCallID != "item_1" {
		t.Fatalf("call %+v", c)
	}
	if upds[0].Update.Status != event.StatusCompleted || upds[0].Update.ToolCallID != "item_1" {
		t.Fatalf("update %+v", upds[0].Update)
	}
	res := agentstest.OfKind(evs, event.Result)
	if len(res) != 1 || res[0].Update.Text != "Created `output/helloworld.txt` containing `Hello from codex!`." {
		t.Fatalf("result %+v", res)
	}
}

func TestCodexCommandStatusExitCodeAndDecline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		done     string
		status   event.ToolStatus
		exit     *int
		approval bool
	}{
		{"exit zero", `{"id":"item_0","type":"command_execution","command":"ls","aggregated_output":"a\n","exit_code":0,"status":"completed"}`, event.StatusCompleted, event.Int(0), false},
		{"non-zero exit", `{"id":"item_0","type":"command_execution","command":"ls","aggregated_output":"no such file\n","exit_code":2,"status":"failed"}`, event.StatusFailed, event.Int(2), false},
		{"non-zero exit said completed", `{"id":"item_0","type":"command_execution","command":"ls","aggregated_output":"","exit_code":1,"status":"completed"}`, event.StatusFailed, event.Int(1), false},
		{"declined", `{"id":"item_0","type":"command_execution","command":"rm -rf /","aggregated_output":"","exit_code":null,"status":"declined"}`, event.StatusFailed, nil, true},
		{"abandoned without exit code", `{"id":"item_0","type":"command_execution","command":"sleep 9","aggregated_output":"","exit_code":null,"status":"completed"}`, event.StatusCompleted, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := codexEvents(t,
				`{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}`,
				`{"type":"item.completed","item":`+tc.done+`}`)
			if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, []event.Kind{event.ToolCall, event.ToolCallUpdate}) {
				t.Fatalf("kinds %v", got)
			}
			c, u := evs[0].Update, evs[1].Update
			if c.Status != event.StatusInProgress || c.ToolKind != event.ToolExecute || c.Title != "Run: ls" || string(c.RawInput) != `{"command":"ls"}` {
				t.Fatalf("call %+v", c)
			}
			if u.Status != tc.status || u.ApprovalRequired != tc.approval || u.ToolCallID != "item_0" {
				t.Fatalf("update %+v", u)
			}
			if (u.ExitCode == nil) != (tc.exit == nil) || (u.ExitCode != nil && *u.ExitCode != *tc.exit) {
				t.Fatalf("exit code %v, want %v", u.ExitCode, tc.exit)
			}
			if !json.Valid(u.RawOutput) {
				t.Fatalf("raw output %s", u.RawOutput)
			}
		})
	}
}

func TestCodexItemIDsRestartPerInvocation(t *testing.T) {
	t.Parallel()
	// Two invocations of one thread in one file: run2 reuses item_1 (a
	// todo list there, a file change in run1) and item_2.
	data := agentstest.StreamFixture(t, "codex/evolve-run1-reasoning-file-change.jsonl") +
		agentstest.StreamFixture(t, "codex/evolve-run2-resumed-todo-commands.jsonl")
	evs := agentstest.EventsOf(t, agents.Codex, data)
	open := map[string]int{}
	for _, ev := range evs {
		switch ev.Update.SessionUpdate {
		case event.ToolCall:
			open[ev.Update.ToolCallID]++
		case event.ToolCallUpdate:
			if open[ev.Update.ToolCallID] == 0 {
				t.Fatalf("line %d: update for %s without an open call", ev.Line, ev.Update.ToolCallID)
			}
			open[ev.Update.ToolCallID]--
		}
	}
	for id, n := range open {
		if n != 0 {
			t.Errorf("%s left open %d times", id, n)
		}
	}
	if n := len(agentstest.OfKind(evs, event.ToolCall)); n != 1+6 {
		t.Fatalf("%d tool calls, want 7", n)
	}
	if n := len(agentstest.OfKind(evs, event.Result)); n != 2 {
		t.Fatalf("%d results, want one per invocation", n)
	}
}

func TestCodexTodoListIsAPlan(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "codex", "evolve-run2-resumed-todo-commands.jsonl"), agents.Options{Agent: agents.Codex})
	plans := agentstest.OfKind(evs, event.Plan)
	if len(plans) != 5 {
		t.Fatalf("%d plan events, want started, 3 updates and completed", len(plans))
	}
	first, last := plans[0].Update.Entries, plans[len(plans)-1].Update.Entries
	if len(first) != 3 || first[0].Content != "Confirm requested filename" || first[0].Status != "pending" {
		t.Fatalf("first plan %+v", first)
	}
	for _, e := range last {
		if e.Status != "completed" {
			t.Fatalf("last plan %+v", last)
		}
	}
}

func TestCodexMCPToolCall(t *testing.T) {
	t.Parallel()
	evs := codexEvents(t,
		`{"type":"item.started","item":{"id":"item_3","type":"mcp_tool_call","server":"docs","tool":"search","arguments":{"query":"go"},"result":null,"error":null,"status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"item_3","type":"mcp_tool_call","server":"docs","tool":"search","arguments":{"query":"go"},"result":{"content":[{"type":"text","text":"found 2"}],"structured_content":null},"error":null,"status":"completed"}}`,
		`{"type":"item.started","item":{"id":"item_4","type":"mcp_tool_call","server":"docs","tool":"fetch","arguments":{},"result":null,"error":null,"status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"item_4","type":"mcp_tool_call","server":"docs","tool":"fetch","arguments":{},"result":null,"error":{"message":"timeout"},"status":"failed"}}`)
	calls, upds := agentstest.OfKind(evs, event.ToolCall), agentstest.OfKind(evs, event.ToolCallUpdate)
	if len(calls) != 2 || len(upds) != 2 {
		t.Fatalf("kinds %v", agentstest.Kinds(evs))
	}
	if c := calls[0].Update; c.ToolName != "mcp__docs__search" || c.ToolKind != event.ToolOther || string(c.RawInput) != `{"query":"go"}` {
		t.Fatalf("call %+v", c)
	}
	if u := upds[0].Update; u.Status != event.StatusCompleted || u.Content == nil || u.Content.Text != "found 2" || len(u.RawOutput) == 0 {
		t.Fatalf("update %+v", u)
	}
	if u := upds[1].Update; u.Status != event.StatusFailed || u.Message != "timeout" {
		t.Fatalf("failed update %+v", u)
	}
}

func TestCodexWebSearchIsFetch(t *testing.T) {
	t.Parallel()
	evs := codexEvents(t,
		`{"type":"item.started","item":{"id":"item_1","type":"web_search","query":"","action":{"type":"other"}}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"web_search","query":"go 1.26 release","action":{"type":"search","query":"go 1.26 release"}}}`)
	if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, []event.Kind{event.ToolCall, event.ToolCallUpdate}) {
		t.Fatalf("kinds %v", got)
	}
	if c := evs[0].Update; c.ToolKind != event.ToolFetch || c.ToolName != "web_search" {
		t.Fatalf("call %+v", c)
	}
	if evs[1].Update.Status != event.StatusCompleted {
		t.Fatalf("update %+v", evs[1].Update)
	}
}

func TestCodexQuietAndNewerLines(t *testing.T) {
	t.Parallel()
	evs, st := agentstest.ParseBytes(t, []byte(strings.Join([]string{
		`{"type":"turn.started"}`,
		`{"type":"item.plan.delta","item_id":"item_0","delta":"1. read"}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"plan","text":"1. read\n2. edit"}}`,
		`{"type":"request_user_input","id":"t1","call_id":"call_9","questions":[{"id":"q","header":"H","question":"Which branch?"}]}`,
		`{"type":"item.started","item":{"id":"item_1","type":"collab_tool_call","tool":"spawn_agent","sender_thread_id":"a","receiver_thread_ids":["b"],"prompt":"review it","agents_states":{},"status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"collab_tool_call","tool":"spawn_agent","sender_thread_id":"a","receiver_thread_ids":["b"],"prompt":"review it","agents_states":{"b":{"status":"running","message":null}},"status":"completed"}}`,
	}, "\n")), agents.Options{Agent: agents.Codex})
	if st.QuietLines != 2 {
		t.Fatalf("quiet lines %d, want turn.started and the plan delta", st.QuietLines)
	}
	want := []event.Kind{event.AgentMessageChunk, event.ToolCall, event.ToolCall, event.ToolCallUpdate}
	if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
	if evs[0].Update.Content.Text != "1. read\n2. edit" || evs[0].Extra["itemType"] != "plan" {
		t.Fatalf("plan item %+v", evs[0])
	}
	if u := evs[1].Update; u.ToolCallID != "call_9" || u.Title != "Ask user: Which branch?" || u.Status != event.StatusPending {
		t.Fatalf("request_user_input %+v", u)
	}
	if u := evs[2].Update; u.ToolKind != event.ToolThink || u.ToolName != "spawn_agent" {
		t.Fatalf("collab call %+v", u)
	}
}

func TestCodexLegacyShape(t *testing.T) {
	t.Parallel()
	evs, _ := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "codex-legacy", "vibekanban-legacy-msg-reasoning-exec.jsonl"), agents.Options{Agent: agents.Codex})
	want := []event.Kind{event.AgentThoughtChunk, event.ToolCall, event.ToolCallUpdate, event.Result}
	if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
	c, u := evs[1].Update, evs[2].Update
	if c.ToolCallID != "call_I1o1QnQDtlLjGMg4Vd9HXJLd" || u.ToolCallID != c.ToolCallID || c.Title != "Run: bash -lc ls -1" || c.ToolKind != event.ToolExecute {
		t.Fatalf("call %+v update %+v", c, u)
	}
	if u.ExitCode == nil || *u.ExitCode != 0 || u.Status != event.StatusCompleted || !strings.HasPrefix(u.Content.Text, "AGENT.md\n") {
		t.Fatalf("update %+v", u)
	}
	if r := evs[3].Update; !strings.HasPrefix(r.Text, "I can see the directory structure") || *r.IsError {
		t.Fatalf("result %+v", r)
	}
}

func TestCodexLegacyConfigAndMissingKey(t *testing.T) {
	t.Parallel()
	evs, st := agentstest.ParseAll(t, filepath.Join(agentstest.StreamsDir, "codex-legacy", "vibekanban-legacy-msg-missing-api-key.jsonl"), agents.Options{})
	if agents.Kind(st.Agent) != agents.Codex {
		t.Fatalf("sniffed %s", st.Agent)
	}
	want := []event.Kind{event.SessionStart, event.UserMessageChunk, event.Error}
	if got := agentstest.Kinds(evs); !agentstest.EqualKinds(got, want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
	s := evs[0]
	if s.Model != "codex-mini-latest" || !strings.HasSuffix(s.Update.Cwd, "vk-ec8b-describe-t") || s.Extra["reasoning effort"] != "medium" {
		t.Fatalf("session start %+v", s)
	}
	if e := evs[2]; !e.Update.Fatal || !strings.HasPrefix(e.Update.Message, "Missing environment variable") || e.Line != 4 {
		t.Fatalf("error %+v", e)
	}
}

func TestCodexLegacyTokenCountIsCallUsage(t *testing.T) {
	t.Parallel()
	evs := codexEvents(t,
		`{"id":"1","msg":{"type":"token_count","input_tokens":900,"cached_input_tokens":512,"output_tokens":40,"reasoning_output_tokens":20,"total_tokens":940}}`,
		`{"id":"1","msg":{"type":"token_count","input_tokens":1000,"cached_input_tokens":900,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":1010}}`,
		`{"id":"1","msg":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1900,"cached_input_tokens":1412,"output_tokens":50,"total_tokens":1950},"last_token_usage":null}}}`)
	us := agentstest.OfKind(evs, event.Usage)
	if len(us) != 3 {
		t.Fatalf("kinds %v", agentstest.Kinds(evs))
	}
	if us[0].Update.Scope != event.ScopeCall || us[0].MessageID == us[1].MessageID || us[0].MessageID == "" {
		t.Fatalf("call usages %+v %+v", us[0], us[1])
	}
	if u := us[0].Update; agentstest.Deref(u.PromptTokens) != 900 || agentstest.Deref(u.CachedTokens) != 512 || agentstest.Deref(u.CompletionTokens) != 40 || u.UsageExtra["reasoning_output_tokens"] != 20 {
		t.Fatalf("usage %+v", u)
	}
	if u := us[2].Update; u.Scope != event.ScopeRun || agentstest.Deref(u.PromptTokens) != 1900 {
		t.Fatalf("run usage %+v", u)
	}
}

func TestCodexClaimsOnlyItsOwnLines(t *testing.T) {
	t.Parallel()
	p := codexParser{}
	for _, l := range []string{
		`{"type":"thread.started","thread_id":"x"}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"t"}}`,
		`{"id":"1","msg":{"type":"task_started"}}`,
		`{"sandbox":"read-only","reasoning effort":"medium","workdir":"/w","model":"o3"}`,
	} {
		if !p.Claims([]byte(l)) {
			t.Errorf("does not claim %s", l)
		}
	}
	for _, l := range []string{
		`{"type":"error","message":"x"}`,
		`{"prompt":"hello"}`,
		`{"type":"system","subtype":"init","session_id":"s","model":"m"}`,
		`{"type":"init","timestamp":"2025-12-17T21:05:58.126Z","session_id":"s","model":"gemini"}`,
		`{"type":"step_start","timestamp":1,"sessionID":"ses","part":{"type":"step-start"}}`,
		`not json`,
	} {
		if p.Claims([]byte(l)) {
			t.Errorf("claims %s", l)
		}
	}
}

func FuzzParseCodex(f *testing.F) {
	for _, dir := range []string{"codex", "codex-legacy"} {
		files, _ := filepath.Glob(filepath.Join(agentstest.StreamsDir, dir, "*.jsonl"))
		agentstest.AddFileSeeds(f, true, files...)
	}
	f.Add([]byte("{\"type\":\"error\",\"message\":\"x\"}\nnot json\n{\"type\":\"item.updated\",\"item\":{\"id\":\"item_0\",\"type\":\"command_execution\"}}"))
	agentstest.FuzzEveryLine(f, agents.Codex)
}

// TestCodexLegacyConfigSettings: a legacy config line's settings are read
// as strings, null as "", other values left out, whether its values all
// decode as Go values or one is a number past a float64's range.
func TestCodexLegacyConfigSettings(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		`{"model":"gpt-5","workdir":"/w","reasoning effort":"high","sandbox":null,"n":3,"o":{"a":1}}`,
		`{"model":"gpt-5","workdir":"/w","reasoning effort":"high","sandbox":null,"n":1e999,"o":{"a":1}}`,
	} {
		for _, borrow := range []bool{false, true} {
			var got []*event.Event
			_, err := agents.Default().Parse(strings.NewReader(line+"\n"), agents.Options{Agent: agents.Codex, Borrow: borrow}, func(ev *event.Event) {
				if borrow {
					c := *ev
					c.Extra = maps.Clone(ev.Extra)
					got = append(got, &c)
				} else {
					got = append(got, ev)
				}
			})
			if err != nil || len(got) != 1 {
				t.Fatalf("%s: %d events, %v", line, len(got), err)
			}
			ev := got[0]
			want := map[string]any{"reasoning effort": "high", "sandbox": ""}
			if ev.Update.SessionUpdate != event.SessionStart || ev.Update.Cwd != "/w" || ev.Model != "gpt-5" || !maps.Equal(ev.Extra, want) {
				t.Errorf("%s (lent %v): %+v, extra %v", line, borrow, ev.Update, ev.Extra)
			}
		}
	}
}
