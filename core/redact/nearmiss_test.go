package redact

import (
	"bytes"
	"strings"
	"testing"
)

// nearMisses are ordinary text from code, shells and agent streams that
// looks like a secret to a careless rule. Every one must come out of
// String and JSONLine byte for byte.
func nearMisses() []struct{ name, text string } {
	return []struct{ name, text string }{
		// The false positives of issue 12.
		{"branch named sk-", "git checkout -b feature/sk-1234-fix-login-redirect-loop"},
		{"bearer in prose", "Use Bearer authentication for every call to the API."},
		{"authorization header read in code", "const token = req.headers.authorization;"},
		{"api key from the environment", "const apiKey = process.env.OPENAI_API_KEY;"},
		{"page token", `{"items": [], "nextPageToken": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA3EgZ0b2tlbg"}`},

		// Code that names a secret without holding one.
		{"python annotation", "def __init__(self, token: str) -> None:"},
		{"dataclass field", "class Config:\n    password: str\n    token: Optional[str] = None\n"},
		{"typescript field", "interface Login {\n  password: string;\n  apiKey?: string;\n}"},
		{"getenv", `password = os.getenv("DB_PASSWORD")`},
		{"dict lookup", "token = config[\"bot_token\"]\nsecret = os.getenv(\"X\")"},
		{"variable passed on", "login(user, password=password, token=token)"},
		{"field of self", "self.api_key = self.settings.api_key"},
		{"tokenizer", "ids = tokenizer.encode(text); n_tokens = len(ids)"},
		{"password hash", "password_hash = bcrypt.hashpw(pw, salt)"},
		{"token counts", `{"usage":{"input_tokens":12,"cache_read_input_tokens":3,"output_tokens":4,"max_tokens":4096}}`},
		{"token type", `{"access_token_type": "Bearer", "token_type": "Bearer", "expires_in": 3600}`},
		{"api key source", `{"type":"system","subtype":"init","apiKeySource":"none"}`},

		// Shells and configuration.
		{"env reference", "export PASSWORD=$DB_PASSWORD TOKEN=${GH_TOKEN}"},
		{"yaml reference", "db:\n  password: ${DB_PASSWORD}\n  token: '{{ vault_token }}'\n"},
		{"bearer from a variable", `curl -H "Authorization: Bearer $TOKEN" https://api.example.com`},
		{"bearer placeholder", "Authorization: Bearer <token>"},
		{"placeholder value", "password=<your-password> api_key=%API_KEY%"},
		{"masked value", "Password: ******** token=xxxxxxxx"},
		{"empty values", `password= token="" secret=''`},
		{"literal values", "secret=true\ntoken: false\nauth: none"},
		{"working folder", "PWD=/home/user/project OLDPWD=/tmp"},
		{"password file flag", "--password-file=/run/secrets/db --token-file ./token.txt"},
		{"password on stdin", "docker login -u ci --password-stdin registry.example.com"},
		{"mysql prompts", "mysql -u root -p shop"},
		{"curl user without password", "curl -u alice https://example.com/api"},
		{"dash p elsewhere", "mkdir -p build/out && gcc -pthread -o app main.c && find . -print"},
		{"dash u elsewhere", "git push -u origin main && docker run -u 1000:1000 alpine"},
		{"auth that is not a credential", `{"auth": "oauth2", "sig": "abc"}`},
		{"short sas sig", "https://x.blob.core.windows.net/c?sig=abc&sv=1"},

		// URLs.
		{"url without password", "see https://user@example.com:8443/path@v2 and http://localhost:8080/x"},
		{"redis without auth", "redis://localhost:6379/0 postgres://db.internal:5432/app"},
		{"slack hooks page", "https://hooks.slack.com/services/ is where webhooks live"},

		// Identifiers that link events.
		{"git hash", "commit 3f786850e387550fdab836ed7e6dc881de23001b\nAuthor: x"},
		{"uuid", `{"session_id":"1f0c9f5e-8d3b-4a0e-9c8e-2b6a1d2f3e4c"}`},
		{"sha256", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"tool ids", "toolu_01A09q90qw90lq917835lq9 call_12345xyz msg_01XFDUDYJgAACzvnptvVoYEL item_7"},
		{"gemini tool id", "run_shell_command-1758650000000-a1b2c3d4e5f6"},
		{"base64 image", "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="},
		{"forty byte path", "open lib/Widgets2/Layout/Grid/ColumnView/Cell then"},

		// Near misses of token prefixes.
		{"short aws id", "AKIA1234 and ASIA is a continent"},
		{"short github token", "ghp_abc gho_ is a prefix"},
		{"jwt header alone", "eyJhbGciOiJIUzI1NiJ9 is a header"},
		{"telegram-like time", "12345678:ABCdef at 10:30:45"},
		{"key-value", "a key-value store keeps key-12 and key-abcdef"},
		{"dapibus", "Lorem ipsum dolor sit amet, dapibus ac facilisis in, egestas eget quam."},
		{"lin_api version", "lin_api_version = 2"},
		{"hf hub", "hf_hub_download(repo_id=repo)"},
		{"sendgrid-like class", "SG.MyClass and ya29 is Google's prefix"},
		{"pypi index", "pip install -i https://pypi.org/simple pypi-simple"},
		{"age prose", "AGE-SECRET-KEY-1 starts every age identity"},
		{"stripe prose", "keys start with sk_live_ or sk_test_"},
		{"slack prose", "bot tokens start with xoxb- and app tokens with xapp-"},
		{"openai prose", "project keys start with sk-proj- and are long"},
		{"certificate", "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUJ\n-----END CERTIFICATE-----"},
		{"public key", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----"},
	}
}

func TestNearMissesUnchanged(t *testing.T) {
	cases := nearMisses()
	if len(cases) < 40 {
		t.Fatalf("%d near misses, want at least 40", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := String(tc.text); got != tc.text {
				t.Errorf("String changed it:\n in: %q\nout: %q", tc.text, got)
			}
			if got := Bytes([]byte(tc.text)); !bytes.Equal(got, []byte(tc.text)) {
				t.Errorf("Bytes changed it:\n in: %q\nout: %q", tc.text, got)
			}
			for _, shape := range jsonShapes(t, tc.text) {
				if got := JSONLine(shape); !bytes.Equal(got, shape) {
					t.Errorf("JSONLine changed it:\n in: %s\nout: %s", shape, got)
				}
			}
			if strings.HasPrefix(tc.text, "{") {
				if got := JSONLine([]byte(tc.text)); string(got) != tc.text {
					t.Errorf("JSONLine changed the line:\n in: %s\nout: %s", tc.text, got)
				}
			}
		})
	}
}
