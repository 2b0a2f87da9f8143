package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Programs sift starts from the inbox ($EDITOR, $PAGER) follow one rule:
// the program and its own options come from the user's setting, split
// into words; text from a stream (a path a tool call names) is never one
// of those words. It is only ever the single argument after `--`, and
// only once it has been resolved to the absolute path of an existing
// regular file. A `+LINE` argument is built by sift from an integer.

// openTarget is a file a tool call names, resolved for the editor.
type openTarget struct {
	// path is the absolute path of the file, symlinks resolved: what is
	// shown and what is opened.
	path string
	// inside reports whether the file lies under the run's recorded
	// working directory (both with symlinks resolved); a file elsewhere,
	// or any file of a run whose directory is unknown, is opened only
	// after the reviewer confirms.
	inside bool
}

// resolveEditPath resolves a path a stream names against the working
// directory `sift run` recorded for the run (cwd, "" when unknown). A
// relative path never resolves against sift's own directory. It refuses,
// with an error fit for the status line, a Windows path, a relative path
// of a run whose directory is unknown, and anything that is not an
// existing regular file (missing, a directory, a device, a fifo, a
// socket). It reads the file system: call it off the UI goroutine.
func resolveEditPath(name, cwd string) (openTarget, error) {
	shown := Inert(name)
	switch {
	case name == "":
		return openTarget{}, errors.New("this call names no file")
	case looksWindows(name):
		return openTarget{}, fmt.Errorf("a Windows path cannot be opened here: %s", shown)
	}
	if cwd != "" && !filepath.IsAbs(cwd) {
		cwd = ""
	}
	abs := filepath.Clean(name)
	if !filepath.IsAbs(name) {
		if cwd == "" {
			return openTarget{}, fmt.Errorf("relative path of a run whose working directory is unknown: %s", shown)
		}
		abs = filepath.Join(cwd, name)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return openTarget{}, fmt.Errorf("file not found here: %s", Inert(abs))
	}
	if !fi.Mode().IsRegular() {
		return openTarget{}, fmt.Errorf("not a regular file (%s): %s", fileKind(fi.Mode()), Inert(abs))
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return openTarget{}, fmt.Errorf("file not found here: %s", Inert(abs))
	}
	return openTarget{path: real, inside: under(real, cwd)}, nil
}

// looksWindows reports whether a path is a Windows one (C:\…, C:/…,
// \\server\share) on a system where it would be read as a relative name.
func looksWindows(p string) bool {
	if filepath.VolumeName(p) != "" {
		return false // Windows itself: filepath reads it.
	}
	if strings.HasPrefix(p, `\\`) {
		return true
	}
	return len(p) >= 2 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z') &&
		(len(p) == 2 || p[2] == '\\' || p[2] == '/')
}

// under reports whether a resolved file lies inside dir once dir's own
// symlinks are resolved; false when dir is unknown or gone.
func under(file, dir string) bool {
	if dir == "" {
		return false
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(root, file)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// fileKind names what a non-regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a fifo"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// userCommand splits a program setting ($EDITOR, $PAGER) into words, the
// user's own program and options; fallback when it is empty.
func userCommand(setting, fallback string) []string {
	words := strings.Fields(setting)
	if len(words) == 0 {
		return []string{fallback}
	}
	return words
}

// editorCmd is $EDITOR opening path at line (none when line ≤ 0): the
// path is the one argument after `--`.
func editorCmd(editor string, line int, path string) *exec.Cmd {
	args := userCommand(editor, "vi")
	if line > 0 {
		args = append(args, "+"+strconv.Itoa(line))
	}
	args = append(args, "--", path)
	return exec.Command(args[0], args[1:]...)
}

// pagerCmd is $PAGER showing a file sift wrote: its name is the one
// argument after `--`.
func pagerCmd(pager, path string) *exec.Cmd {
	args := append(userCommand(pager, "less"), "--", path)
	return exec.Command(args[0], args[1:]...)
}
