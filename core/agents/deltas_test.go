package agents

import "testing"

// TestDeltaTextShapes pins the delta lines of each harness that prints
// them, and lines that only look like one.
func TestDeltaTextShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line   string
		stream string
		text   string
	}{
		{`{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]},"timestamp_ms":5}`, "assistant", `"hi"`},
		{`{"type":"assistant","message":{"content":[{"type":"text","text":"whole reply"}]}}`, "", ""},
		{`{"type":"assistant","message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"timestamp_ms":5}`, "", ""},
		{`{"type":"message","role":"assistant","content":"x","delta":true}`, "message:assistant", `"x"`},
		{`{"type":"message","role":"user","content":"prompt"}`, "", ""},
		{`{"type":"thinking","subtype":"completed"}`, "", ""},
		{`{"type":"thinking","subtype":"delta","text":5}`, "", ""},
		{`{"type":"stream_event","event":{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"a"}}}`, "claude:input:2", `"{\"a"`},
		{`{"type":"item.plan.delta","item_id":"item_1","delta":"step"}`, "plan", `"step"`},
		{`not json with delta in it`, "", ""},
		{`{"type":"thinking","subtype":"delta","text":"unclosed`, "", ""},
	} {
		stream, lo, hi, ok := DeltaText([]byte(tc.line))
		got := ""
		if ok {
			got = tc.line[lo:hi]
		}
		if stream != tc.stream || got != tc.text {
			t.Errorf("%s: stream %q text %s, want %q %s", tc.line, stream, got, tc.stream, tc.text)
		}
	}
}
