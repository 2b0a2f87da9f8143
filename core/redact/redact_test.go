package redact

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestIDsSurvive(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in string }{
		{"claude tool use id", `{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"Bash"}`},
		{"claude message id", `{"message":{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","model":"claude-sonnet-4-5"}}`},
		{"openai call id", `{"type":"function_call","call_id":"call_12345xyz","name":"shell"}`},
		{"codex item id", `{"type":"item.started","item":{"id":"item_0","type":"command_execution"}}`},
		{"uuid session id", `{"session_id":"1f0c9f5e-8d3b-4a0e-9c8e-2b6a1d2f3e4c","uuid":"0b7c2e9a-1111-4222-8333-944455556666"}`},
		{"git hash", `{"stdout":"commit 3f786850e387550fdab836ed7e6dc881de23001b\nAuthor: x"}`},
		{"sha256", `{"digest":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}`},
		{"token counters", `{"usage":{"input_tokens":12,"cache_read_input_tokens":3,"output_tokens":4,"total_tokens":19}}`},
		{"token count type", `{"id":"3","msg":{"type":"token_count","input_tokens":1}}`},
		{"api key source", `{"type":"system","subtype":"init","apiKeySource":"none"}`},
		{"python annotation", `{"text":"def __init__(self, token: str) -> None:"}`},
		{"code expression", `{"text":"token = config[\"bot_token\"]\nsecret = os.getenv(\"X\")"}`},
		{"env reference", `{"command":"curl -H \"Authorization: Bearer $TOKEN\" https://x"}`},
		{"gemini tool id", `{"type":"tool_use","tool_id":"run_shell_command-1758650000000-a1b2c3d4e5f6"}`},
		{"url without password", `{"text":"see https://user@example.com:8443/path@v2 and http://localhost:8080/x"}`},
		{"boolean secret flag", `{"text":"secret=true"}`},
		{"word task-", `{"text":"task-1234567890abcdefghijkl"}`},
		{"base64 image", `{"data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := JSONLine([]byte(tc.in))
			if string(got) != tc.in {
				t.Errorf("changed:\n in: %s\nout: %s", tc.in, got)
			}
		})
	}
}

func TestJSONLineUnchangedIsSameSlice(t *testing.T) {
	t.Parallel()
	in := []byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"hello"}]}}`)
	if got := JSONLine(in); &got[0] != &in[0] {
		t.Error("a line without a secret was copied")
	}
}

func TestJSONLineNested(t *testing.T) {
	t.Parallel()
	key := "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn\n-----END RSA PRIVATE KEY-----"
	inner, _ := json.Marshal(map[string]string{"stdout": key, "password": "hunter2"})
	outer, _ := json.Marshal(map[string]any{"type": "user", "tool_use_result": string(inner)})
	// One more level: the whole line quoted inside another string.
	twice, _ := json.Marshal(map[string]string{"text": string(outer)})
	for _, line := range [][]byte{outer, twice} {
		got := JSONLine(line)
		if !json.Valid(got) {
			t.Fatalf("invalid JSON: %s", got)
		}
		for _, secret := range []string{"MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn", "hunter2"} {
			if bytes.Contains(got, []byte(secret)) {
				t.Errorf("%q survived in %s", secret, got)
			}
		}
		if !bytes.Contains(got, []byte("[REDACTED:private-key]")) || !bytes.Contains(got, []byte("[REDACTED:password]")) {
			t.Errorf("markers missing: %s", got)
		}
	}
}

func TestJSONLineSecretKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"password key", `{"password":"hunter2","user":"bob"}`, `{"password":"[REDACTED:password]","user":"bob"}`},
		{"authorization key", `{"headers":{"Authorization":"Basic Ym9iOmh1bnRlcjI="}}`, `{"headers":{"Authorization":"[REDACTED:authorization]"}}`},
		{"camel api key", `{"apiKey" : "abc"}`, `{"apiKey" : "[REDACTED:api-key]"}`},
		{"numeric token kept", `{"token":5,"x":"y"}`, `{"token":5,"x":"y"}`},
		{"empty password kept", `{"password":""}`, `{"password":""}`},
		{"object value kept", `{"secret":{"name":"n"}}`, `{"secret":{"name":"n"}}`},
		{"secret as a key", `{"ghp_aB3dE5fG7haB3dE5fG7haB3dE5fG7haB3dE5":1}`, `{"[REDACTED:github-token]":1}`},
		{"sandbox prefix kept", "\x01\x01\x01" + `{"password":"p"}`, "\x01\x01\x01" + `{"password":"[REDACTED:password]"}`},
		{"not json is text", `Error: password=hunter2 rejected`, `Error: password=[REDACTED:password] rejected`},
		{"unclosed string is text", `{"text":"password=hunter2`, `{"text":"password=[REDACTED:password]`},
		{"escapes preserved", `{"text":"a\u00e9\"b\" token=abc\n"}`, `{"text":"aé\"b\" token=[REDACTED:token]\n"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(JSONLine([]byte(tc.in))); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestPrefilterAgreesWithRules(t *testing.T) {
	t.Parallel()
	// Every corpus sample, in every casing the rules accept, must pass the
	// prefilter; otherwise the fast path would let it through.
	for _, tc := range corpus() {
		in := strings.Replace(tc.text, "%s", tc.secret, 1)
		for _, s := range []string{in, strings.ToUpper(in), strings.ToLower(in)} {
			if redactString(s) != s && !mayContain(s) {
				t.Errorf("%s: prefilter misses %q", tc.name, s)
			}
		}
	}
}

// The AWS and GitHub anchors check the key's whole body; at the rules'
// length limits they must still agree with the regular expressions.
func TestPrefilterAtLengthLimits(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"key AKIA" + strings.Repeat("Z", 16) + " end",
		"key AKIA" + strings.Repeat("Z", 15) + " end",
		"key AKIA" + strings.Repeat("Z", 17) + " end",
		"B=AKIA; echo",
		"ghp_" + strings.Repeat("a", 30),
		"ghp_" + strings.Repeat("a", 29),
		"x ghs_" + strings.Repeat("9", 255) + ".",
		"github_pat_" + strings.Repeat("a_", 11),
		"github_pat_" + strings.Repeat("a", 21),
		"A=ghp_; B=AKIA; echo token ${A}Zq8T4mNcY2vR7wXkLp3sB9dF6hJ1gA5eU0iO",
	} {
		changed := redactString(s) != s
		if changed && !mayContain(s) {
			t.Errorf("prefilter misses %q", s)
		}
		if !changed && mayContain(s) {
			t.Errorf("prefilter sends %q to a rule that cannot match it", s)
		}
	}
}

func BenchmarkJSONLine(b *testing.B) {
	var lines [][]byte
	var n int64
	for _, l := range fixtureLines(b) {
		lines = append(lines, l.text)
		n += int64(len(l.text)) + 1
	}
	b.SetBytes(n)
	b.ResetTimer()
	for range b.N {
		for _, l := range lines {
			JSONLine(l)
		}
	}
}
