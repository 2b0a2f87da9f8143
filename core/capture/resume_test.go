package capture

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
)

func TestResumeCommand(t *testing.T) {
	t.Parallel()
	const uuid = "01a228d6-75d5-7a40-b0d5-56ece334771f"
	for _, tc := range []struct {
		name              string
		kind              agents.Kind
		id, cwd, prompt   string
		want, wantWhyPart string
	}{
		{"claude", agents.Claude, uuid, "/srv/app", "fix the test", `cd '/srv/app' && 'claude' '--resume' '` + uuid + `' '-p' '--' 'fix the test'`, ""},
		{"codex", agents.Codex, uuid, "", "retry", `'codex' 'exec' 'resume' '` + uuid + `' '--' 'retry'`, ""},
		{"gemini", agents.Gemini, uuid, "", "-rf is fine", `'gemini' '--resume' '` + uuid + `' '--prompt=-rf is fine'`, ""},
		{"opencode", agents.OpenCode, "ses_dd7359a26ffe3PzADXk6pWA6cy", "", "go", `'opencode' 'run' '--session' 'ses_dd7359a26ffe3PzADXk6pWA6cy' '--' 'go'`, ""},
		{"a quote in the note and the folder", agents.Claude, uuid, "/it's", "don't", `cd '/it'\''s' && 'claude' '--resume' '` + uuid + `' '-p' '--' 'don'\''t'`, ""},
		{"an id that is a flag", agents.Claude, "--dangerously-skip-permissions", "", "x", "", "not a claude session id"},
		{"an id with a shell word", agents.Codex, uuid + "; rm -rf ~", "", "x", "", "not a codex session id"},
		{"no id", agents.Gemini, "", "", "x", "", "names no gemini session id"},
		{"no note", agents.Claude, uuid, "", " ", "", "no note"},
		{"an unpinned CLI", agents.Droid, uuid, "", "x", "", "droid CLI is not pinned"},
	} {
		r := ResumeCommand(tc.kind, tc.id, tc.cwd, tc.prompt)
		if got := r.Shell(); got != tc.want {
			t.Errorf("%s: Shell() = %s, want %s", tc.name, got, tc.want)
		}
		if (tc.wantWhyPart == "") != (r.Why == "") || !strings.Contains(r.Why, tc.wantWhyPart) {
			t.Errorf("%s: Why = %q, want it to say %q", tc.name, r.Why, tc.wantWhyPart)
		}
	}
}

// TestShellQuoteRoundTrips runs quoted words through a real POSIX shell:
// each comes back as it was.
func TestShellQuoteRoundTrips(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, w := range []string{"plain", "it's", `$(touch /tmp/x) ; && | \ " ' *`, "line\nbreak", "-n", ""} {
		out, err := exec.Command(sh, "-c", "printf %s "+ShellQuote(w)).Output()
		if err != nil || string(out) != w {
			t.Errorf("%q came back as %q (%v)", w, out, err)
		}
	}
}
