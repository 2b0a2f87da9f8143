package redact

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/redact/redacttest"
)

// secretCase is one sample of the corpus (redacttest.Case): the text
// around the secret, the secret itself (which must disappear) and the
// kind its marker names.
type secretCase struct {
	name   string
	text   string // contains %s where the secret goes
	secret string
	kind   string
}

// The corpus and its fake alphabets live in redacttest, for the other
// packages' tests too.
const (
	aAlnum  = redacttest.AAlnum
	aUpper  = redacttest.AUpper
	aHex    = redacttest.AHex
	aURL    = redacttest.AURL
	aB64    = redacttest.AB64
	aDigits = redacttest.ADigits
	aBech32 = redacttest.ABech32
)

func rep(s string, n int) string                { return redacttest.Rep(s, n) }
func fake(seed, alphabet string, n int) string  { return redacttest.Fake(seed, alphabet, n) }
func pem(label string, end bool) string         { return redacttest.Pem(label, end) }
func tok(prefix, alphabet string, n int) string { return redacttest.Tok(prefix, alphabet, n) }

// corpus holds the secret samples; every one must be caught by String,
// Bytes and JSONLine (as a value and inside JSON nested in a string).
func corpus() []secretCase {
	var out []secretCase
	for _, c := range redacttest.Corpus() {
		out = append(out, secretCase{c.Name, c.Text, c.Secret, c.Kind})
	}
	return out
}

func TestCorpusString(t *testing.T) {
	cases := corpus()
	if len(cases) < 120 {
		t.Fatalf("corpus has %d samples, want at least 120", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Replace(tc.text, "%s", tc.secret, 1)
			got := String(in)
			if leaked(got, tc.secret) {
				t.Fatalf("secret survived:\n in: %q\nout: %q", in, got)
			}
			if want := Prefix + tc.kind + "]"; !strings.Contains(got, want) {
				t.Errorf("no %s in %q", want, got)
			}
			if b := Bytes([]byte(in)); string(b) != got {
				t.Errorf("Bytes = %q, String = %q", b, got)
			}
		})
	}
}

func TestCorpusJSONLine(t *testing.T) {
	for _, tc := range corpus() {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Replace(tc.text, "%s", tc.secret, 1)
			for _, shape := range jsonShapes(t, in) {
				got := JSONLine(shape)
				if !json.Valid(got) {
					t.Fatalf("invalid JSON after redaction:\n in: %s\nout: %s", shape, got)
				}
				if leaks(t, got, tc.secret) {
					t.Fatalf("secret survived:\n in: %s\nout: %s", shape, got)
				}
			}
		})
	}
}

// jsonShapes puts text into the JSON places a stream carries it: a plain
// string value, a tool input, and a tool result whose text is itself JSON
// (so the secret sits inside escaped quotes).
func jsonShapes(t *testing.T, text string) [][]byte {
	t.Helper()
	inner, err := json.Marshal(map[string]any{"stdout": text, "exit_code": 0})
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, v := range []any{
		map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_3", "type": "agent_message", "text": text}},
		map[string]any{"type": "assistant", "message": map[string]any{"id": "msg_01", "content": []any{
			map[string]any{"type": "tool_use", "id": "toolu_01ABC", "name": "Bash", "input": map[string]any{"command": text}}}}},
		map[string]any{"type": "user", "message": map[string]any{"content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": "toolu_01ABC", "content": string(inner)}}}},
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// leaks reports whether secret appears in any decoded string of a JSON
// document, at any nesting depth of JSON-in-a-string.
func leaks(t *testing.T, doc []byte, secret string) bool {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			if leaked(x, secret) {
				return true
			}
			var inner any
			if json.Unmarshal([]byte(x), &inner) == nil {
				return walk(inner)
			}
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v) || leaked(string(doc), secret)
}

// leaked reports whether any 12 bytes of secret (all of it, when shorter)
// survive in out: a secret redacted only in part leaks too.
func leaked(out, secret string) bool {
	const w = 12
	if len(secret) <= w {
		return strings.Contains(out, secret)
	}
	for i := 0; i+w <= len(secret); i++ {
		if strings.Contains(out, secret[i:i+w]) {
			return true
		}
	}
	return false
}
