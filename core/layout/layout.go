// Package layout is the one shape of path sift writes its captured
// streams in, `<logs>/<workItem>/<phase>-<iteration>-<hex>.jsonl`, and the
// marker that makes a folder a logs root sift owns: how a name is read,
// which roots the sweep and the purge may delete in, and which files of a
// session sift owns. The capture writes in it; the import, the API, the
// sweep and the purge read it.
package layout

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The capture layout is the one shape of path sift writes under a logs
// root, `<root>/<workItem>/<phase>-<iteration>-<hex>.jsonl` (capture.CreateFile),
// and the only shape the retention sweep deletes. A root sift created
// holds a marker file; the sweep touches no root without one.

// MarkerName is the file that marks a folder as a logs root sift owns.
const MarkerName = ".sift-logs"

// markerText is the marker's content, for a person who finds it.
const markerText = `This folder holds agent streams captured by sift.
sift's retention sweep deletes old files named <workItem>/<phase>-<iteration>-<hex>.jsonl
in this folder, and nothing else. Delete this file to stop the sweep here.
`

// nameHexMin is the fewest hex digits a stream file's name ends with. The
// names CreateFile writes carry twelve; those of earlier versions six,
// which still read.
const nameHexMin = 6

// ParseStreamName splits a stream file's name,
// `<phase>-<iteration>-<hex>.jsonl`, where hex is six or more lowercase hex
// digits and iteration is decimal digits. The phase may itself hold dashes
// and colons (`audit-llm-security:llm-review-3-d4e5f6.jsonl`) but must be
// one path element and not start with a dot. It reports false for any
// other name.
func ParseStreamName(name string) (phase string, iteration int, ok bool) {
	stem, found := strings.CutSuffix(name, ".jsonl")
	if !found || strings.HasPrefix(name, ".") || strings.ContainsAny(name, "/\\\x00") {
		return "", 0, false
	}
	i := strings.LastIndexByte(stem, '-')
	if i < 0 || len(stem)-i-1 < nameHexMin || !isLowerHex(stem[i+1:]) {
		return "", 0, false
	}
	stem = stem[:i]
	j := strings.LastIndexByte(stem, '-')
	if j <= 0 || !isDigits(stem[j+1:]) {
		return "", 0, false
	}
	n, err := strconv.Atoi(stem[j+1:])
	if err != nil {
		return "", 0, false
	}
	return stem[:j], n, true
}

// IsLayoutPath reports whether rel, a path relative to a logs root, is a
// stream file of the capture layout: exactly two elements, a work item
// folder that is not hidden and a name ParseStreamName accepts. It looks
// at the name only; the caller checks that neither element is a link.
func IsLayoutPath(rel string) bool {
	wi, name, ok := strings.Cut(filepath.ToSlash(rel), "/")
	if !ok || !IsWorkItemDir(wi) {
		return false
	}
	_, _, ok = ParseStreamName(name)
	return ok
}

// IsWorkItemDir reports whether a folder name directly under a logs root
// can hold stream files: one path element, not hidden.
func IsWorkItemDir(name string) bool {
	return CheckName("work item", name) == nil && !strings.HasPrefix(name, ".")
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// MakeRoot creates the logs root dir when it is missing, with its parents,
// and marks it: a folder this call created is sift's own. A folder that
// already exists is left as it is, marked or not. It reports whether it
// created dir.
func MakeRoot(dir string) (created bool, err error) {
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(dir)), 0o700); err != nil {
		return false, err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, err
	}
	return true, writeMarker(dir)
}

// MarkRoot marks an existing folder as a logs root sift owns, after the
// checks of CheckMarkable. It reports whether the folder was marked
// already.
func MarkRoot(dir string) (already bool, err error) {
	if err := CheckMarkable(dir); err != nil {
		return false, err
	}
	if ok, err := Marked(dir); err != nil || ok {
		return ok, err
	}
	return false, writeMarker(dir)
}

// writeMarker creates the marker in dir; an existing one is kept.
func writeMarker(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, MarkerName), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("mark %s: %w", dir, err)
	}
	if _, err := f.WriteString(markerText); err != nil {
		f.Close()
		return fmt.Errorf("mark %s: %w", dir, err)
	}
	return f.Close()
}

// Marked reports whether dir holds the marker as a regular file (a link
// named like the marker does not count).
func Marked(dir string) (bool, error) {
	fi, err := os.Lstat(filepath.Join(dir, MarkerName))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	}
	return fi.Mode().IsRegular(), nil
}

// RootProblem says why a folder cannot be a swept logs root.
type RootProblem uint8

// The reasons a logs root is refused.
const (
	// RootNotAbsolute is a relative path; callers resolve it first.
	RootNotAbsolute RootProblem = iota + 1
	// RootFileSystem is `/`.
	RootFileSystem
	// RootHome is the home folder or one of its ancestors.
	RootHome
	// RootSymlink is a symbolic link.
	RootSymlink
	// RootNotDir is a file or anything else that is not a folder.
	RootNotDir
	// RootUnmarked is a folder without the marker: sift did not create
	// it, and nobody marked it with `sift init-logs`.
	RootUnmarked
)

// RootError is a logs root the sweep (or marking) refuses.
type RootError struct {
	Dir     string
	Problem RootProblem
}

// Error implements error.
func (e *RootError) Error() string {
	return fmt.Sprintf("logs folder %s: %s", e.Dir, e.Reason())
}

// Reason is why the root is refused, as a phrase.
func (e *RootError) Reason() string {
	switch e.Problem {
	case RootNotAbsolute:
		return "not an absolute path"
	case RootFileSystem:
		return "it is the file system root"
	case RootHome:
		return "it is or holds your home folder"
	case RootSymlink:
		return "it is a symbolic link"
	case RootNotDir:
		return "it is not a folder"
	case RootUnmarked:
		return "sift did not create it (it has no " + MarkerName + " marker)"
	}
	return "refused"
}

// CheckSweepRoot returns nil when the sweep may delete capture-layout
// files under dir: an absolute path to a real folder (not a link) that is
// neither `/` nor the home folder nor an ancestor of it, and holds the
// marker. Otherwise it returns a *RootError, or an error wrapping
// fs.ErrNotExist when dir does not exist.
func CheckSweepRoot(dir string) error {
	if err := CheckMarkable(dir); err != nil {
		return err
	}
	ok, err := Marked(dir)
	if err != nil {
		return fmt.Errorf("logs folder %s: %w", dir, err)
	}
	if !ok {
		return &RootError{Dir: dir, Problem: RootUnmarked}
	}
	return nil
}

// CheckMarkable is CheckSweepRoot without the marker: the roots
// `sift init-logs` refuses to mark.
func CheckMarkable(dir string) error {
	if !filepath.IsAbs(dir) {
		return &RootError{Dir: dir, Problem: RootNotAbsolute}
	}
	dir = filepath.Clean(dir)
	if dir == filepath.Dir(dir) {
		return &RootError{Dir: dir, Problem: RootFileSystem}
	}
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("logs folder %s: %w", dir, fs.ErrNotExist)
	case err != nil:
		return fmt.Errorf("logs folder %s: %w", dir, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return &RootError{Dir: dir, Problem: RootSymlink}
	case !fi.IsDir():
		return &RootError{Dir: dir, Problem: RootNotDir}
	}
	if holdsHome(dir) {
		return &RootError{Dir: dir, Problem: RootHome}
	}
	return nil
}

// holdsHome reports whether dir is the home folder or an ancestor of it,
// comparing both the paths as given and with links resolved (a root
// reached through a link to /home is still /home).
func holdsHome(dir string) bool {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return false
	}
	if within(dir, home) {
		return true
	}
	rd, err1 := filepath.EvalSymlinks(dir)
	rh, err2 := filepath.EvalSymlinks(home)
	return err1 == nil && err2 == nil && within(rd, rh)
}

// within reports whether path is dir or lies under it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	return err == nil && (rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))))
}

// CheckName rejects a work item id or phase that cannot be one path
// element: empty, `.`, `..`, or holding a path separator or NUL.
func CheckName(what, s string) error {
	if s == "" || s == "." || s == ".." || strings.ContainsAny(s, "/\\\x00") {
		return fmt.Errorf("bad %s %q: it must be one path element", what, s)
	}
	return nil
}
