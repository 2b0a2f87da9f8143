package capture

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/review"
)

func TestResumeCommand(t *testing.T) {
	t.Parallel()
	const uuid = "01a228d6-75d5-7a40-b0d5-56ece334771f"
	project := t.TempDir()
	for _, tc := range []struct {
		name                    string
		kind                    agents.Kind
		id, run, stream, prompt string
		want, withNote          string
		dirFrom, wantWhyPart    string
	}{
		{"claude, sift run's folder", agents.Claude, uuid, "/srv/app", "/elsewhere", "fix the test",
			"cd -- /srv/app && claude --resume " + uuid, "cd -- /srv/app && claude --resume " + uuid + " -p -- 'fix the test'", "sift run", ""},
		{"codex, the stream's folder", agents.Codex, uuid, "", project, "retry",
			"cd -- " + project + " && codex resume " + uuid, "cd -- " + project + " && codex exec resume " + uuid + " -- retry", "the stream", ""},
		{"gemini, a stream folder that does not exist", agents.Gemini, uuid, "", "/no/such/folder", "-rf is fine",
			"gemini --resume " + uuid, "gemini --resume " + uuid + " '--prompt=-rf is fine'", "", ""},
		{"opencode, a relative stream folder", agents.OpenCode, "ses_dd7359a26ffe3PzADXk6pWA6cy", "", "work", "go",
			"opencode --session ses_dd7359a26ffe3PzADXk6pWA6cy", "opencode run --session ses_dd7359a26ffe3PzADXk6pWA6cy -- go", "", ""},
		{"no note: the interactive form only", agents.Claude, uuid, "", "", " ", "claude --resume " + uuid, "", "", ""},
		{"a quote in the note and the folder", agents.Claude, uuid, "/it's", "", "don't",
			"cd -- '/it'\\''s' && claude --resume " + uuid, "cd -- '/it'\\''s' && claude --resume " + uuid + " -p -- 'don'\\''t'", "sift run", ""},
		{"an id that is a flag", agents.Claude, "--dangerously-skip-permissions", "", "", "x", "", "", "", "not a claude session id"},
		{"an id with a shell word", agents.Codex, uuid + "; rm -rf ~", "", "", "x", "", "", "", "not a codex session id"},
		{"no id", agents.Gemini, "", "", "", "x", "", "", "", "names no gemini session id"},
		{"an unpinned CLI", agents.Droid, uuid, "", "", "x", "", "", "", "droid CLI is not pinned"},
	} {
		r := ResumeCommand(tc.kind, tc.id, tc.run, tc.stream, tc.prompt)
		if got := r.Shell(); got != tc.want {
			t.Errorf("%s: Shell() = %s, want %s", tc.name, got, tc.want)
		}
		if got := r.NoteShell(); got != tc.withNote {
			t.Errorf("%s: NoteShell() = %s, want %s", tc.name, got, tc.withNote)
		}
		if r.DirFrom != tc.dirFrom || (r.Dir == "") != (r.DirWhy != "") {
			t.Errorf("%s: folder %q from %q (unknown: %q), want from %q", tc.name, r.Dir, r.DirFrom, r.DirWhy, tc.dirFrom)
		}
		if (tc.wantWhyPart == "") != (r.Why == "") || !strings.Contains(r.Why, tc.wantWhyPart) {
			t.Errorf("%s: Why = %q, want it to say %q", tc.name, r.Why, tc.wantWhyPart)
		}
	}
}

// TestResumeLinesRunInAShell gives each resume line to a real POSIX shell
// with the agents replaced by a program that prints its arguments: every
// argument arrives as built, quoted or not.
func TestResumeLinesRunInAShell(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	note := `it's $(touch /tmp/x); "quoted" * -n`
	for _, kind := range []agents.Kind{agents.Claude, agents.Codex, agents.Gemini, agents.OpenCode} {
		id := "01a228d6-75d5-7a40-b0d5-56ece334771f"
		if kind == agents.OpenCode {
			id = "ses_dd7359a26ffe3PzADXk6pWA6cy"
		}
		r := ResumeCommand(kind, id, dir, "", note)
		for _, form := range []struct {
			argv []string
			line string
		}{{r.Argv, r.Shell()}, {r.NoteArgv, r.NoteShell()}} {
			argv, line := form.argv, form.line
			// The agent's binary is a function that prints its words.
			script := argv[0] + `() { printf '%s\n' "$PWD" "$@"; }; ` + line
			out, err := exec.Command(sh, "-c", script).Output()
			want := append([]string{dir}, argv[1:]...)
			if got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"); err != nil || !slices.Equal(got, want) {
				t.Errorf("%s: %s\n got %q (%v)\nwant %q", kind, line, got, err, want)
			}
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
		out, err := exec.Command(sh, "-c", "printf %s "+review.ShellWord(w)).Output()
		if err != nil || string(out) != w {
			t.Errorf("%q came back as %q (%v)", w, out, err)
		}
	}
}
