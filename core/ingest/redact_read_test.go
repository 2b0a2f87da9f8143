package ingest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/summary"
)

// TestReadRedactsWhereTextEnters reads a stream sift did not capture whose
// prompt, tool input, long tool output (its secret far past any cut) and
// error hold a secret: every event the parse hands on, to the summary
// builder and the search text alike, is already redacted. A file a
// recorded `sift run` wrote was redacted on its way to disk and is read
// as it is.
func TestReadRedactsWhereTextEnters(t *testing.T) {
	t.Parallel()
	secret := "ghp_" + strings.Repeat("Q7w8E9r0", 5)[:36]
	long := strings.Repeat("ok line\n", 4000) + "token " + secret + "\n"
	input, _ := json.Marshal(map[string]string{"command": "curl -H 'Authorization: token " + secret + "'"})
	output, _ := json.Marshal(long)
	lines := []string{
		`{"type":"system","subtype":"init","session_id":"3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f","model":"claude-sonnet-4-5","cwd":"/tmp"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"use ` + secret + `"}]}}`,
		`{"type":"assistant","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":` + string(input) + `}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":` + string(output) + `,"is_error":true}]}}`,
		`{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":10,"num_turns":1,"result":"failed with ` + secret + `"}`,
	}
	stream := strings.Join(lines, "\n") + "\n"
	for _, captured := range []bool{false, true} {
		var seen strings.Builder
		p := parser{reg: agents.Default(), captured: captured}
		if _, _, err := analyze(p, strings.NewReader(stream), summary.Options{Agent: "claude"}, func(ev *event.Event) {
			b, _ := json.Marshal(ev)
			seen.Write(b)
		}); err != nil {
			t.Fatal(err)
		}
		n := strings.Count(seen.String(), secret[4:20])
		switch {
		case !captured && n > 0:
			t.Errorf("the parse handed on %d events' texts holding the secret", n)
		case !captured && !strings.Contains(seen.String(), "[REDACTED:"):
			t.Error("no marker in the events: the secret is not in them at all")
		case captured && n == 0:
			t.Error("a captured file's lines were redacted again (or the stream holds no secret)")
		}
	}
}
