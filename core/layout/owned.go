package layout

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// OwnsFile reports whether path is a file sift owns and may delete: a
// regular file (not a link) named as a capture,
// <logsRoot>/<workItem>/<phase>-<iteration>-<hex>.jsonl, of the session of
// that work item and file name, in a marked logs root and a work item
// folder that is not a link either. Otherwise it says why the file is
// kept.
func OwnsFile(logsRoot, workItem, fileName, path string) (bool, string) {
	if logsRoot == "" {
		return false, "no logs folder is configured"
	}
	root, err := filepath.Abs(logsRoot)
	if err != nil {
		return false, "the logs folder cannot be resolved"
	}
	path = filepath.Clean(path)
	if filepath.Dir(filepath.Dir(path)) != root {
		return false, "not in the logs folder " + root
	}
	if err := CheckSweepRoot(root); err != nil {
		return false, err.Error()
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || !IsLayoutPath(rel) {
		return false, "not named as a sift capture file"
	}
	if filepath.Base(path) != fileName || filepath.Base(filepath.Dir(path)) != workItem ||
		strings.HasPrefix(workItem, ".") {
		return false, "not in the session's work item folder"
	}
	if fi, err := os.Lstat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return false, "its work item folder is not a plain folder"
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, "already gone"
	case err != nil:
		return false, reason(err)
	case !fi.Mode().IsRegular():
		return false, "not a regular file"
	}
	return true, ""
}

// RemoveOwned deletes a capture file of the session of workItem and
// fileName, checking OwnsFile again right before (the file may have been
// replaced by a link since it was planned) and removing it by name inside
// its folder, opened as an os.Root, so that no link is followed; then the
// work item folder, when left empty. deleted is false, with why, for a
// file it keeps; a file already gone counts as deleted.
func RemoveOwned(workItem, fileName, path string) (deleted bool, why string, err error) {
	if ok, why := OwnsFile(filepath.Dir(filepath.Dir(path)), workItem, fileName, path); !ok {
		return false, why, nil
	}
	r, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return false, "", errors.New(reason(err))
	}
	defer r.Close()
	if err := r.Remove(filepath.Base(path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, "", errors.New(reason(err))
	}
	os.Remove(filepath.Dir(path)) // the work item folder, when left empty
	return true, "", nil
}

// reason is an error as a reason, without the path os errors repeat.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
