package summary

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// TestInputSummary pins what a call's input is summarized as: the first
// telling field in inputKeys order that says something, read without
// decoding the rest of the input.
func TestInputSummary(t *testing.T) {
	t.Parallel()
	big := strings.Repeat(`{"x":"}]\"{"},`, 500)
	for _, tc := range []struct{ name, in, want string }{
		{"command first", `{"description":"list","command":"ls -la"}`, "ls -la"},
		{"escaped command", `{"command":"echo \"hi\"\nexit 1"}`, `echo "hi" …`},
		{"unicode escape", `{"command":"caf\u00e9"}`, "café"},
		{"empty best field falls through", `{"command":"","file_path":"/a/b.go"}`, "/a/b.go"},
		{"null and numbers say nothing", `{"command":null,"cmd":3,"path":"src"}`, "src"},
		{"last of a repeated key", `{"path":"one","path":"two"}`, "two"},
		{"any case", `{"File_Path":"/x.go"}`, "/x.go"},
		{"nested values skipped", `{"content":` + "[" + big + `{}],"meta":{"path":"inner"},"pattern":"TODO"}`, "TODO"},
		{"array of words", `{"patterns":["*.go","*.md"]}`, "*.go *.md"},
		{"array of changes", `{"changes":[{"path":"a.go"},{"path":"b.go"}]}`, "a.go, b.go"},
		{"unknown fields only", `{"x":1}`, `{"x":1}`},
		{"malformed", `{"command":"ls"`, `{"command":"ls"`},
		{"trailing garbage", `{"command":"ls"} x`, `{"command":"ls"} x`},
		{"trailing comma", `{"command":"ls",}`, `{"command":"ls",}`},
		{"spaces", "{\n \"command\" :\t\"make\" \n} ", "make"},
		{"empty object", `{}`, `{}`},
		{"a bare string", `"just text"`, "just text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := &event.Update{RawInput: json.RawMessage(tc.in)}
			if got := inputSummary(u); got != tc.want {
				t.Errorf("inputSummary(%.80s) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestInputSummaryKeepsNoInput: the summary of a large input is a copy of
// its first line, never a view of the input.
func TestInputSummaryKeepsNoInput(t *testing.T) {
	t.Parallel()
	in := []byte(`{"command":"` + strings.Repeat("x", 100) + `"}`)
	s := inputSummary(&event.Update{RawInput: in})
	scribble(in)
	if s != strings.Repeat("x", 100) {
		t.Errorf("summary changed with its input: %q", s)
	}
}
