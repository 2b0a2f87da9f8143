package capture

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
)

// TestResumeFlagsAreTheCLIs checks each harness's resume commands
// against its pinned CLI (testdata/agents): every subcommand and flag of
// the interactive form and of the note form is in the --help text of the
// (sub)command it is given to. Without the CLIs installed (npm ci
// --prefix testdata/agents) it skips, saying so; CI installs them.
func TestResumeFlagsAreTheCLIs(t *testing.T) {
	bin := filepath.Join("..", "..", "testdata", "agents", "node_modules", ".bin")
	checked := 0
	for _, h := range agents.Harnesses() {
		if h.Resume == nil {
			continue
		}
		exe := filepath.Join(bin, h.CLI.Binary)
		if _, err := os.Stat(exe); err != nil {
			t.Skipf("%s is not installed: run npm ci --prefix testdata/agents", h.CLI.Binary)
		}
		id := "01a228d6-75d5-7a40-b0d5-56ece334771f"
		if !h.Resume.ID.MatchString(id) {
			id = "ses_dd7359a26ffe3PzADXk6pWA6cy"
		}
		for _, args := range [][]string{h.Resume.Args(id), h.Resume.Prompt(id, "the note")} {
			// The words before the first flag and the id are
			// subcommands: --help is asked of the deepest.
			var sub []string
			for _, a := range args {
				if strings.HasPrefix(a, "-") || a == id {
					break
				}
				sub = append(sub, a)
			}
			help := cliHelp(t, exe, sub)
			for _, a := range args[len(sub):] {
				flag, _, _ := strings.Cut(a, "=")
				if !strings.HasPrefix(flag, "-") || flag == "--" {
					continue
				}
				if !regexp.MustCompile(`(^|[\s,\[])` + regexp.QuoteMeta(flag) + `([\s,=\]<]|$)`).MatchString(help) {
					t.Errorf("%s %s: %s is not in its --help", h.CLI.Binary, strings.Join(sub, " "), flag)
				}
			}
			if len(sub) > 0 && !strings.Contains(help, "Usage") && !strings.Contains(help, strings.Join(sub, " ")) {
				t.Errorf("%s %s: no such subcommand:\n%s", h.CLI.Binary, strings.Join(sub, " "), help)
			}
			checked++
		}
	}
	if checked < 8 {
		t.Fatalf("%d resume forms checked, want both forms of 4 CLIs", checked)
	}
}

// cliHelp runs `exe sub... --help` offline and returns what it printed.
func cliHelp(t *testing.T, exe string, sub []string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, append(append([]string{}, sub...), "--help")...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "NO_COLOR=1", "DISABLE_AUTOUPDATER=1")
	out, _ := cmd.CombinedOutput()
	if len(out) == 0 {
		t.Fatalf("%s %v --help printed nothing", exe, sub)
	}
	return string(out)
}
