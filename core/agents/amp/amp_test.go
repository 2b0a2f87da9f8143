package amp

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// TestAmpHistoryDirs pins where Amp's threads are looked for: ccusage's
// AMP_DATA_DIR list, Amp's own $XDG_DATA_HOME, then ~/.local/share, each
// once.
func TestAmpHistoryDirs(t *testing.T) {
	t.Parallel()
	env := map[string]string{"AMP_DATA_DIR": " /a , /h/.local/share/amp,", "XDG_DATA_HOME": "/x"}
	got := ampHistoryDirs(func(k string) string { return env[k] }, "/h")
	want := []string{"/a/threads", "/h/.local/share/amp/threads", "/x/amp/threads"}
	if !slices.Equal(got, want) {
		t.Errorf("dirs %v, want %v", got, want)
	}
	if got := ampHistoryDirs(func(string) string { return "" }, ""); len(got) != 0 {
		t.Errorf("no home, no variables: %v", got)
	}
	for _, tc := range []struct {
		parts []string
		ok    bool
	}{
		{[]string{"T-1.json"}, true},
		{[]string{"T-1.json.amptmp"}, false},
		{[]string{"old", "T-1.json"}, false},
	} {
		if _, _, ok := ampSession(tc.parts); ok != tc.ok {
			t.Errorf("ampSession(%v) ok %v, want %v", tc.parts, ok, tc.ok)
		}
	}
}

// TestAmpThreadLines renders a thread: a ledger event follows the
// assistant message its toMessageId names, one naming none comes last, and
// its tokens take that message's cache; a run's status decides its call.
func TestAmpThreadLines(t *testing.T) {
	t.Parallel()
	doc := `{"id":"T-1","created":1768178184664,"env":{"initial":{"trees":[{"uri":"file:///w/a%20b"}]}},
	"messages":[
	 {"role":"user","messageId":0,"content":[{"type":"text","text":"go"}]},
	 {"role":"assistant","messageId":1,"content":[{"type":"tool_use","id":"c1","name":"Bash","input":{"cmd":"false"}},
	   {"type":"tool_use","id":"c2","name":"Read","input":{"path":"/w/x"}},{"type":"tool_use","id":"c3","name":"Bash","input":{"cmd":"ls"}}],
	  "state":{"type":"complete","stopReason":"tool_use"},"usage":{"model":"m","inputTokens":9,"cacheCreationInputTokens":3,"cacheReadInputTokens":7}},
	 {"role":"user","messageId":2,"content":[
	   {"type":"tool_result","toolUseID":"c1","run":{"status":"done","result":{"output":"","exitCode":1}}},
	   {"type":"tool_result","toolUseID":"c2","run":{"status":"rejected-by-user","reason":"not allowed"}},
	   {"type":"tool_result","toolUseID":"c3","run":{"status":"in-progress"}}]}],
	"usageLedger":{"events":[
	 {"timestamp":"2026-01-02T00:00:00.000Z","model":"m","tokens":{"input":5},"toMessageId":9},
	 {"timestamp":"2026-01-02T00:00:00.000Z","model":"m","tokens":{"input":9,"output":4},"credits":2,"toMessageId":1}]}}`
	lines, err := AmpThreadLines([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, l := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		typ := l[strings.Index(l, `"type":"`)+8:]
		kinds = append(kinds, typ[:strings.IndexByte(typ, '"')])
	}
	if want := []string{"amp-thread", "amp-message", "amp-message", "amp-ledger", "amp-message", "amp-ledger"}; !slices.Equal(kinds, want) {
		t.Fatalf("lines %v, want %v", kinds, want)
	}
	var evs []*event.Event
	if _, err := agents.Default().Parse(bytes.NewReader(lines), agents.Options{Agent: agents.AmpHistory}, func(ev *event.Event) { evs = append(evs, ev) }); err != nil {
		t.Fatal(err)
	}
	var usages []*event.Event
	status := map[string]event.ToolStatus{}
	for _, ev := range evs {
		switch ev.Update.SessionUpdate {
		case event.SessionStart:
			if ev.SessionID != "T-1" || ev.Update.Cwd != "/w/a b" {
				t.Errorf("start: id %q, cwd %q", ev.SessionID, ev.Update.Cwd)
			}
		case event.Usage:
			usages = append(usages, ev)
		case event.ToolCallUpdate:
			status[ev.Update.ToolCallID] = ev.Update.Status
		}
	}
	// The message's own usage is not counted: the thread keeps a ledger.
	if len(usages) != 2 || *usages[0].Update.PromptTokens != 9+3+7 || *usages[0].Update.CompletionTokens != 4 ||
		*usages[0].Update.CostUSD != 0.02 || *usages[1].Update.PromptTokens != 5 {
		t.Errorf("usages %+v", usages)
	}
	want := map[string]event.ToolStatus{"c1": event.StatusFailed, "c2": event.StatusFailed}
	if len(status) != 2 || status["c1"] != want["c1"] || status["c2"] != want["c2"] {
		t.Errorf("results %v, want %v (the run in progress still open)", status, want)
	}
	if _, err := AmpThreadLines([]byte(`{"id":`)); err == nil {
		t.Error("a cut document renders")
	}
}
