package ingest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestMainCall: the message id of a parent transcript's main-chain call
// is read from the bytes of a line as Claude Code 2.1.38 wrote it, and by
// decoding a line of another shape; a sidechain's call, a call without a
// request id or usage, and a tool's id in the content are none.
func TestMainCall(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../agents/testdata/accounting/claude-2.1.38-usage.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	real := strings.SplitN(string(b), "\n", 2)[0]
	const id = "msg_01MKH1ccEGrZGNPvu8pYiiQa"
	// remarshal writes the keys sorted: the message's content before its
	// id, which the bytes then cannot tell.
	remarshal := func(change func(map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal([]byte(real), &m); err != nil {
			t.Fatal(err)
		}
		change(m)
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	message := func(m map[string]any) map[string]any { return m["message"].(map[string]any) }
	for _, tc := range []struct{ name, line, want string }{
		{"as written", real, id},
		{"sidechain as written", strings.Replace(real, `"isSidechain":false`, `"isSidechain":true`, 1), ""},
		{"keys sorted", remarshal(func(map[string]any) {}), id},
		{"sidechain, keys sorted", remarshal(func(m map[string]any) { m["isSidechain"] = true }), ""},
		{"no request id", remarshal(func(m map[string]any) { delete(m, "requestId") }), ""},
		{"no usage", remarshal(func(m map[string]any) { delete(message(m), "usage") }), ""},
		{"a tool's id before the message's", remarshal(func(m map[string]any) {
			message(m)["content"] = []any{map[string]any{"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": map[string]any{}}}
		}), id},
	} {
		if got := mainCall([]byte(tc.line)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
