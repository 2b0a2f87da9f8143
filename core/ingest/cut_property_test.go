package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/redact/redacttest"
	"github.com/agentsift/sift/core/summary"
)

// cuts are the lengths at which sift cuts a stream's text on its way to a
// summary: the 120 bytes the parsers once cut titles at, a line
// (maxLine), a turn's text, a title (summary.MaxTitle).
var cuts = []int{120, 160, 240, summary.MaxTitle}

// TestNoCutKeepsPartOfASecret is Hardening II's property: for every
// secret shape of the redaction corpus, placed at every offset around
// every cut, as a command, a path and a URL of a tool call, no 8
// consecutive characters of the secret survive in the summary or the
// review events a read keeps (what the store, the index and the exports
// are made from). The parsers once cut a title at 120 bytes before the
// summary redacted it, and kept up to 33 of a token's 40 characters.
func TestNoCutKeepsPartOfASecret(t *testing.T) {
	t.Parallel()
	tools := []struct{ name, key string }{{"Bash", "command"}, {"Read", "file_path"}, {"WebFetch", "url"}}
	for _, tc := range redacttest.Corpus() {
		if strings.ContainsAny(tc.Secret, "\n") {
			continue // a key block spans lines: a title keeps only its first
		}
		text := strings.Replace(tc.Text, "%s", tc.Secret, 1)
		if strings.Contains(text, "\n") {
			text = text[:strings.IndexByte(text, '\n')]
			if !strings.Contains(text, tc.Secret) {
				continue
			}
		}
		at := strings.Index(text, tc.Secret)
		for _, cut := range cuts {
			for start := cut - len(tc.Secret) - 8; start <= cut+8; start++ {
				pad := start - at - len("x ")
				if pad < 0 {
					continue
				}
				obj := strings.Repeat("a", pad) + " " + text
				if pad == 0 {
					obj = " " + text
				}
				tool := tools[start%len(tools)]
				out := analyzeCall(t, tool.name, tool.key, obj)
				if w, ok := window8(out, tc.Secret, text+" "+redact.Prefix+tc.Kind+"]"); ok {
					t.Fatalf("%s: %s %s with the secret at %d (cut %d) keeps %q:\n%s", tc.Name, tool.name, tool.key, start, cut, w, out)
				}
			}
		}
	}
}

// analyzeCall reads a Claude stream of one tool call whose input's key is
// obj, and returns its summary and review events as JSON.
func analyzeCall(t *testing.T, name, key, obj string) string {
	t.Helper()
	input, _ := json.Marshal(map[string]string{key: obj})
	lines := []string{
		`{"type":"system","subtype":"init","session_id":"3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f","model":"claude-sonnet-4-5","cwd":"/tmp"}`,
		fmt.Sprintf(`{"type":"assistant","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":%q,"input":%s}],"usage":{"input_tokens":1,"output_tokens":1}}}`, name, input),
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok","is_error":false}]}}`,
		`{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":1,"result":"done","total_cost_usd":0.01}`,
	}
	sum, evs, err := Analyze(strings.NewReader(strings.Join(lines, "\n")+"\n"), summary.Options{Agent: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sum); err != nil {
		t.Fatal(err)
	}
	if err := enc.Encode(evs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// window8 returns a run of 8 characters of secret found in out that the
// text around the secret (and the marker that replaces it) does not hold
// itself.
func window8(out, secret, around string) (string, bool) {
	rest := strings.Replace(around, secret, "\x00", 1)
	for i := 0; i+8 <= len(secret); i++ {
		w := secret[i : i+8]
		if strings.Contains(out, w) && !strings.Contains(rest, w) {
			return w, true
		}
	}
	return "", false
}
