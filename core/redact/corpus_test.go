package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// secretCase is one sample of the corpus: the text around the secret, the
// secret itself (which must disappear) and the kind its marker names.
type secretCase struct {
	name   string
	text   string // contains %s where the secret goes
	secret string
	kind   string
}

// rep repeats s to n bytes, for realistic token lengths.
func rep(s string, n int) string { return strings.Repeat(s, n/len(s)+1)[:n] }

// corpus holds the secret samples; every one must be caught by String,
// Bytes and JSONLine (as a value and inside JSON nested in a string).
func corpus() []secretCase {
	return []secretCase{
		{"aws access key id AKIA", "aws_access_key_id = %s", "AKIAIOSFODNN7EXAMPLE", "aws-access-key"},
		{"aws session key id ASIA", "export AWS_ACCESS_KEY_ID=%s", "ASIAY34FZKBOKMUTVV7A", "aws-access-key"},
		{"aws key id in prose", "the key %s was rotated", "AKIAZZZZZZZZZZZZZZZ1", "aws-access-key"},
		{"aws role id AROA", "role %s", "AROA1234567890ABCDEF", "aws-access-key"},
		{"aws secret in env", "AWS_SECRET_ACCESS_KEY=%s", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws-secret-key"},
		{"aws secret in ini", "aws_secret_access_key = %s", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "aws-secret-key"},
		{"aws secret json", `{"SecretAccessKey": "%s"}`, "9drTJvcXLB89EXAMPLELB8923FB892xMFI", "aws-secret-key"},
		{"github classic pat", "git clone https://x:%s@github.com/a/b", "ghp_" + rep("aB3dE5fG7h", 36), "github-token"},
		{"github oauth token", "token %s", "gho_" + rep("Zq9Wx8Vu7T", 36), "github-token"},
		{"github user-to-server", "GH=%s", "ghu_" + rep("0aZ9bY8cX7", 36), "github-token"},
		{"github server-to-server", "Authorization: token %s", "ghs_" + rep("k3L4m5N6o7", 36), "github-token"},
		{"github refresh token", "refresh with %s now", "ghr_" + rep("P1q2R3s4T5", 36), "github-token"},
		{"github fine-grained pat", "GITHUB_TOKEN=%s", "github_pat_11ABCDEFG0" + rep("aB3_dE5fG7", 60), "github-token"},
		{"anthropic api key", "ANTHROPIC_API_KEY=%s", "sk-ant-api03-" + rep("Xy1_Zw2-Vu3", 95) + "AA", "anthropic-key"},
		{"anthropic oauth token", "using %s for auth", "sk-ant-oat01-" + rep("Qq9-Rr8_Ss7", 80), "anthropic-key"},
		{"openai legacy key", "OPENAI_API_KEY=%s", "sk-" + rep("T3BlbkFJ9x", 48), "openai-key"},
		{"openai project key", "key: %s", "sk-proj-" + rep("a1B2-c3D4_e5", 120), "openai-key"},
		{"openai service account key", "%s", "sk-svcacct-" + rep("Zz9Yy8Xx7W", 60), "openai-key"},
		{"openai key in quotes", `client = OpenAI(api_key="%s")`, "sk-" + rep("9f8E7d6C5b", 48), "openai-key"},
		{"google api key", "https://maps.googleapis.com/x?key=%s", "AIzaSyD" + rep("a9B8c7D6-_", 32), "google-api-key"},
		{"google api key in json", `{"apiKey":"%s"}`, "AIza" + rep("Sy0123456789abcXYZ_-", 35), "google-api-key"},
		{"slack bot token", "SLACK=%s", "xoxb-1234567890-1234567890123-" + rep("AbCdEfGh", 24), "slack-token"},
		{"slack user token", "use %s", "xoxp-1234567890-1234567890-1234567890-" + rep("a1b2c3", 32), "slack-token"},
		{"slack app token", "%s", "xapp-1-A0123456789-1234567890123-" + rep("abc123", 64), "slack-token"},
		{"slack refresh token", "r=%s;", "xoxe-1-" + rep("My9Nx8", 40), "slack-token"},
		{"slack webhook", "curl -X POST %s", "https://hooks.slack.com/services/T00000000/B00000000/" + rep("XXXXxxxx", 24), "slack-webhook"},
		{"stripe secret live", "stripe.api_key = '%s'", "sk_live_" + rep("4eC39HqLyjWDarjtT1zdp7dc", 24), "stripe-key"},
		{"stripe secret test", "STRIPE=%s", "sk_test_" + rep("51H8xYz", 40), "stripe-key"},
		{"stripe restricted live", "%s", "rk_live_" + rep("51AbCdEf", 40), "stripe-key"},
		{"stripe webhook secret", "whsec=%s", "whsec_" + rep("MfKQ9r8GKYqrTwjUPD8ILPZI", 32), "stripe-key"},
		{"jwt bare", "token %s here", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "jwt"},
		{"jwt in cookie", "Cookie: session=%s; Path=/", "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2V4YW1wbGUuY29tIn0.dGhpc2lzYXNpZ25hdHVyZQ", "jwt"},
		{"jwt unsigned", "%s", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.", "jwt"},
		{"rsa private key", "key:\n%s\n", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\naFDrBz9vFqU4yxg=\n-----END RSA PRIVATE KEY-----", "private-key"},
		{"openssh private key", "%s", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----", "private-key"},
		{"pkcs8 private key", "cat key.pem\n%s", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n-----END PRIVATE KEY-----", "private-key"},
		{"ec private key", "%s", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oWXg8FNgBrdSoAoGCCqGSM49\n-----END EC PRIVATE KEY-----", "private-key"},
		{"private key cut before end", "head -3 id_rsa\n%s", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB", "private-key"},
		{"bearer header", "Authorization: Bearer %s", "abcDEF123456ghiJKL789", "bearer-token"},
		{"bearer lower case", "authorization: bearer %s", "0123456789abcdefABCDEF", "bearer-token"},
		{"bearer in curl", `curl -H "Authorization: Bearer %s" https://api.x`, "tok.en-with_mixed~chars+/=", "bearer-token"},
		{"bearer upper case", "AUTHORIZATION: BEARER %s", "ZXhhbXBsZXRva2VuMTIzNDU2", "bearer-token"},
		{"basic auth header", "Authorization: Basic %s", "dXNlcjpwYXNzd29yZDEyMw==", "basic-auth"},
		{"url password postgres", "DATABASE_URL=postgres://app:%s@db.internal:5432/app", "s3cr3tP4ss", "url-password"},
		{"url password https", "git remote add origin https://deploy:%s@git.example.com/r.git", "hunter2hunter2", "url-password"},
		{"url password redis", "redis://default:%s@cache:6379/0", "Zx9!vB7#", "url-password"},
		{"url password amqp", "amqp://guest:%s@rabbit/", "guest-pass-42", "url-password"},
		{"password assignment", "password=%s", "hunter2", "password"},
		{"password env upper", "DB_PASSWORD=%s ./run", "correct-horse-battery", "password"},
		{"passwd assignment", "passwd = %s", "letmein123", "password"},
		{"password quoted double", `password = "%s"`, "p@ss w0rd", "password"},
		{"password quoted single", `password='%s'`, "single-quoted-pw", "password"},
		{"password json key", `{"password": "%s"}`, "json-pass-value", "password"},
		{"password yaml quoted", `db_password: "%s"`, "yaml-pass-123", "password"},
		{"api_key assignment", "api_key=%s", "abcd1234efgh5678", "api-key"},
		{"apikey url query", "https://api.example.com/v1?apikey=%s&q=1", "QwErTy123456", "api-key"},
		{"api-key header style", "x-api-key=%s", "zyx987wvu654", "api-key"},
		{"secret assignment", "secret=%s", "shh-its-a-secret", "secret"},
		{"client secret", "CLIENT_SECRET=%s", "cs_0123456789abcdef", "secret"},
		{"token assignment", "token=%s", "tkn_abcdef0123456789", "token"},
		{"access token query", "https://x.io/cb?access_token=%s&state=1", "ya29.a0Af-example", "token"},
		{"bot token toml", `bot_token = "%s"`, "123456:ABC-DEF1234ghIkl", "token"},
		{"refresh token json", `{"refresh_token":"%s"}`, "1//0gExampleRefresh", "token"},
		{"private_key assignment", "PRIVATE_KEY=%s", "0x4c0883a69102937d6231471b5dbb6204fe512961", "private-key"},
		{"access key camel", `{"accessKey": "%s"}`, "AK-example-value-1", "access-key"},
		{"secret key django", `SECRET_KEY = '%s'`, "django-insecure-abc123!@#", "secret"},
	}
}

func TestCorpusString(t *testing.T) {
	cases := corpus()
	if len(cases) < 60 {
		t.Fatalf("corpus has %d samples, want at least 60", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Replace(tc.text, "%s", tc.secret, 1)
			got := String(in)
			if strings.Contains(got, tc.secret) {
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
			if strings.Contains(x, secret) {
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
	return walk(v) || strings.Contains(string(doc), secret)
}
