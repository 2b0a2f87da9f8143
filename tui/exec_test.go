package tui

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// hostileNames are file names a stream may give a tool call that an
// editor would take as options or commands if they reached its argv bare.
func hostileNames() []string {
	return []string{
		"+!touch /tmp/x",
		"-c",
		"--cmd=!touch x",
		"+:!touch /tmp/x",
		"a\nb.go",
		"-rf.go",
	}
}

// TestEditorPutsTheStreamPathAfterDashes reproduces #1: a Read whose
// file_path is `+!touch /tmp/x` (or -c, --cmd=…, +:!…, a name with a
// newline, a name starting with -) reached $EDITOR as a bare argument,
// that is as an option. Even when such a file exists in the run's folder,
// the path must be the one argument after `--`, absolute.
func TestEditorPutsTheStreamPathAfterDashes(t *testing.T) {
	for _, name := range hostileNames() {
		t.Run(name, func(t *testing.T) {
			cwd := t.TempDir()
			file := filepath.Join(cwd, name)
			if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte("x\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			real, err := filepath.EvalSymlinks(file)
			if err != nil {
				t.Fatal(err)
			}
			t.Setenv("EDITOR", "vi")
			m := openReadCall(t, readSession(t, name, cwd))
			execs := pressExec(t, m, m.c.Keys.Editor)
			if len(execs) != 1 {
				t.Fatalf("e started %d programs, want 1; status %q", len(execs), m.status)
			}
			if want := []string{"vi", "--", real}; !slices.Equal(execs[0].cmd.Args, want) {
				t.Errorf("editor argv %s, want %q", argv(execs[0].cmd), want)
			}
		})
	}
}

// TestEditorRefusesWhatIsNotAnExistingRegularFile: a missing file, a
// directory, a device, a fifo, a Windows path and a relative path of a run
// whose folder is unknown are refused with one status line, and nothing
// is started.
func TestEditorRefusesWhatIsNotAnExistingRegularFile(t *testing.T) {
	cwd := t.TempDir()
	if err := os.Mkdir(filepath.Join(cwd, "pkg"), 0o700); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(cwd, "pipe")
	if err := exec.Command("mkfifo", fifo).Run(); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	abs := func(name string) string { return Inert(filepath.Join(cwd, name)) }
	tests := []struct {
		name, path, cwd, want string
	}{
		{"missing +!cmd", "+!touch /tmp/x", cwd, "file not found here: " + abs("+!touch /tmp/x")},
		{"missing -c", "-c", cwd, "file not found here: " + abs("-c")},
		{"missing --cmd", "--cmd=!touch x", cwd, "file not found here: " + abs("--cmd=!touch x")},
		{"missing with a newline", "a\nb.go", cwd, "file not found here: " + abs("a\nb.go")},
		{"missing absolute", filepath.Join(cwd, "gone.go"), cwd, "file not found here: " + abs("gone.go")},
		{"directory", "pkg", cwd, "not a regular file (a directory): " + abs("pkg")},
		{"fifo", "pipe", cwd, "not a regular file (a fifo): " + abs("pipe")},
		{"device", "/dev/null", cwd, "not a regular file (a device): /dev/null"},
		{"windows drive", `C:\Users\dev\main.go`, cwd, `a Windows path cannot be opened here: C:\Users\dev\main.go`},
		{"windows slash", `d:/src/main.go`, cwd, `a Windows path cannot be opened here: d:/src/main.go`},
		{"windows share", `\\server\share\a.go`, cwd, `a Windows path cannot be opened here: \\server\share\a.go`},
		{"relative, folder unknown", "main.go", "", "relative path of a run whose working directory is unknown: main.go"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("EDITOR", "vi")
			m := openReadCall(t, readSession(t, tc.path, tc.cwd))
			if execs := pressExec(t, m, m.c.Keys.Editor); len(execs) != 0 {
				t.Fatalf("e started %s", argv(execs[0].cmd))
			}
			if m.confirm != nil {
				t.Fatal("e asked to open what it must refuse")
			}
			if !m.statusErr || m.status != tc.want {
				t.Errorf("status %q (error %v), want %q", m.status, m.statusErr, tc.want)
			}
		})
	}
}

// TestEditorOpensOnlyInsideTheRunFolderWithoutAsking: a file under the
// run's folder opens at once (symlinks resolved on both sides); a file
// outside it, reached by an absolute path, by `..` or through a symlink,
// and any file of a run whose folder is unknown, opens only after y.
func TestEditorOpensOnlyInsideTheRunFolderWithoutAsking(t *testing.T) {
	base := t.TempDir()
	cwd, outside := filepath.Join(base, "project"), filepath.Join(base, "elsewhere")
	for _, d := range []string{filepath.Join(cwd, "src"), outside} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) string {
		t.Helper()
		if err := os.WriteFile(p, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	inside, secret := write(filepath.Join(cwd, "src", "main.go")), write(filepath.Join(outside, "secret.txt"))
	if err := os.Symlink(secret, filepath.Join(cwd, "src", "link.txt")); err != nil {
		t.Fatal(err)
	}
	// The run's folder reached through a symlink is still its folder.
	cwdLink := filepath.Join(base, "project-link")
	if err := os.Symlink(cwd, cwdLink); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, cwd, open string
		ask                   bool
	}{
		{"relative inside", "src/main.go", cwd, inside, false},
		{"absolute inside", inside, cwd, inside, false},
		{"folder through a symlink", "src/main.go", cwdLink, inside, false},
		{"absolute outside", secret, cwd, secret, true},
		{"dot-dot outside", "../elsewhere/secret.txt", cwd, secret, true},
		{"symlink out of the folder", "src/link.txt", cwd, secret, true},
		{"folder unknown", inside, "", inside, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("EDITOR", "vi")
			m := openReadCall(t, readSession(t, tc.path, tc.cwd))
			execs := pressExec(t, m, m.c.Keys.Editor)
			if !tc.ask {
				if len(execs) != 1 || !slices.Equal(execs[0].cmd.Args, []string{"vi", "--", tc.open}) {
					t.Fatalf("e started %d programs (%v), want vi -- %s; status %q", len(execs), execs, tc.open, m.status)
				}
				return
			}
			if len(execs) != 0 || m.confirm == nil {
				t.Fatalf("e did not ask first: %d programs, status %q", len(execs), m.status)
			}
			if m.confirm.ask.path != tc.open || !strings.Contains(screenText(m), filepath.Base(tc.open)) {
				t.Errorf("the dialog does not show the path %s:\n%s", tc.open, screenText(m))
			}
			// Anything but y cancels.
			if execs := sendExec(t, m, tea.KeyPressMsg{Code: 'n', Text: "n"}); len(execs) != 0 || m.confirm != nil {
				t.Fatalf("n opened the file or left the dialog open: %v", execs)
			}
			if m.status != "not opened" {
				t.Errorf("status after cancel %q", m.status)
			}
			pressExec(t, m, m.c.Keys.Editor)
			if m.confirm == nil {
				t.Fatal("e did not ask again")
			}
			execs = sendExec(t, m, tea.KeyPressMsg{Code: 'y', Text: "y"})
			if len(execs) != 1 || !slices.Equal(execs[0].cmd.Args, []string{"vi", "--", tc.open}) || m.confirm != nil {
				t.Fatalf("y started %v, want vi -- %s", execs, tc.open)
			}
		})
	}
}

// TestEditorCommandKeepsTheUsersWords: $EDITOR is the user's own setting,
// split into words; sift adds +LINE from an integer, then `--` and the
// path.
func TestEditorCommandKeepsTheUsersWords(t *testing.T) {
	tests := []struct {
		editor string
		line   int
		want   []string
	}{
		{"", 0, []string{"vi", "--", "/p/-c"}},
		{"   ", 3, []string{"vi", "+3", "--", "/p/-c"}},
		{"code --wait", 12, []string{"code", "--wait", "+12", "--", "/p/-c"}},
		{"nvim", -4, []string{"nvim", "--", "/p/-c"}},
	}
	for _, tc := range tests {
		if got := editorCmd(tc.editor, tc.line, "/p/-c").Args; !slices.Equal(got, tc.want) {
			t.Errorf("EDITOR=%q line %d: %q, want %q", tc.editor, tc.line, got, tc.want)
		}
	}
	if got := pagerCmd("", "/tmp/sift-call-1.jsonl").Args; !slices.Equal(got, []string{"less", "--", "/tmp/sift-call-1.jsonl"}) {
		t.Errorf("default pager %q", got)
	}
}

// TestPagerRemovesItsFileWhenItExits: `o` writes the raw lines to a 0600
// file of sift's naming, hands it to $PAGER after `--`, and the file is
// gone once the pager has exited (before #1, every press left one behind),
// whether the pager succeeded or failed.
func TestPagerRemovesItsFileWhenItExits(t *testing.T) {
	for _, fail := range []bool{false, true} {
		t.Setenv("PAGER", "less -R")
		m := openReadCall(t, readSession(t, "main.go", t.TempDir()))
		execs := pressExec(t, m, m.c.Keys.Pager)
		if len(execs) != 1 {
			t.Fatalf("o started %d programs; status %q", len(execs), m.status)
		}
		run := execs[0]
		if want := []string{"less", "-R", "--", run.tmp}; !slices.Equal(run.cmd.Args, want) ||
			!strings.HasPrefix(filepath.Base(run.tmp), "sift-call-") {
			t.Fatalf("pager argv %s, want %q", argv(run.cmd), want)
		}
		fi, err := os.Stat(run.tmp)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("the raw lines file is %v, want 0600", fi.Mode().Perm())
		}
		done := execDoneMsg{tmp: run.tmp}
		if fail {
			done.err = errors.New("exit status 1")
		}
		send(t, m, done)
		if _, err := os.Stat(run.tmp); !os.IsNotExist(err) {
			t.Errorf("the raw lines file is still there after the pager exited (err %v)", err)
		}
		if fail && (!m.statusErr || m.status != "exit status 1") {
			t.Errorf("a failed pager is not reported: %q", m.status)
		}
	}
}

// TestEditorUsesTheStreamsFolderAskingFirst: a run sift did not start
// records no folder, but its stream names one: a relative path resolves
// against it when it is an existing folder, and the reviewer is always
// asked first, the dialog saying the folder is the stream's; a stream
// folder that does not exist leaves the path unresolved.
func TestEditorUsesTheStreamsFolderAskingFirst(t *testing.T) {
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, "src"), 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(project, "src", "main.go")
	if err := os.WriteFile(file, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("EDITOR", "vi")
	s := readSession(t, "src/main.go", "")
	s.StreamCwd = project
	m := openReadCall(t, s)
	if execs := pressExec(t, m, m.c.Keys.Editor); len(execs) != 0 || m.confirm == nil || !m.confirm.ask.fromStream {
		t.Fatalf("e did not ask first: %d programs, status %q", len(execs), m.status)
	}
	if got := screenText(m); !strings.Contains(got, "run folder, as the stream records it: ") {
		t.Errorf("the dialog does not say the folder is the stream's:\n%s", got)
	}
	if execs := sendExec(t, m, tea.KeyPressMsg{Code: 'y', Text: "y"}); len(execs) != 1 || !slices.Equal(execs[0].cmd.Args, []string{"vi", "--", file}) {
		t.Fatalf("y started %v, want vi -- %s", execs, file)
	}
	s.StreamCwd = filepath.Join(project, "gone")
	m = openReadCall(t, s)
	if execs := pressExec(t, m, m.c.Keys.Editor); len(execs) != 0 || m.confirm != nil ||
		!strings.Contains(m.status, "working directory is unknown") {
		t.Fatalf("a stream folder that does not exist: %d programs, confirm %v, status %q", len(execs), m.confirm, m.status)
	}
}
