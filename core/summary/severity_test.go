package summary

import "testing"

// TestErrorSeverity classifies the harness error lines of the recorded
// Codex, Claude, Gemini and Droid streams in testdata (their words, as the
// parsers read them, and whether the parser marked them fatal).
func TestErrorSeverity(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		msg   string
		fatal bool
		want  severity
	}{
		{"Model metadata for `gpt-5-fake` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.", false, sevWarning},
		{"Reconnecting... 1/5 (We're currently experiencing high demand, which may cause temporary errors.)", false, sevTransient},
		{"Reconnecting... 5/5 (We're currently experiencing high demand, which may cause temporary errors.)", false, sevTransient},
		{"We're currently experiencing high demand, which may cause temporary errors.", false, sevError},
		{"We're currently experiencing high demand, which may cause temporary errors.", true, sevFatal},
		{"The 'gpt-5.6-sol' model requires a newer version of Codex. Please upgrade to the latest app or CLI and try again.", false, sevError},
		{"The 'gpt-5.6-sol' model requires a newer version of Codex. Please upgrade to the latest app or CLI and try again.", true, sevFatal},
		{"sift scripted failure: the request was refused", true, sevFatal},
		{"Missing environment variable: `OPENAI_API_KEY`. Create an API key (https://platform.openai.com) and export it as an environment variable.", true, sevFatal},
		{"API Error: 400 sift scripted failure: the request was refused", true, sevFatal},
		{`[API Error: {"error":{"code":400,"message":"sift scripted failure: the request was refused","status":"INVALID_ARGUMENT"}}]`, true, sevFatal},
		{"Exec ended early: insufficient permission to proceed. Re-run with --auto medium or --auto high.", true, sevFatal},
		{"stream disconnected; retrying", false, sevTransient},
	} {
		if got := errorSeverity(tc.msg, tc.fatal); got != tc.want {
			t.Errorf("errorSeverity(%.60q, fatal %v) = %d, want %d", tc.msg, tc.fatal, got, tc.want)
		}
	}
}
