package httpapi

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxNameLen bounds a work item id or a file name.
const maxNameLen = 255

// Errors of path resolution. Neither names a path: the HTTP layer turns
// them into stable codes.
var (
	errBadName  = errors.New("invalid name")
	errNotFound = errors.New("not found")
)

// validName reports whether s is a safe single path element: a work item
// id or a stream file name. It allows letters, digits and ._:@+- (phases
// such as audit-llm-security:llm-review carry a colon), must start with a
// letter or digit and must not contain "..". Separators, backslashes,
// NUL and every other byte are refused, so the name can never step out of
// its directory on any platform.
func validName(s string) bool {
	if s == "" || len(s) > maxNameLen || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case i > 0 && strings.IndexByte("._:@+-", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// logsRoot is the directory the captured streams live under. Every file
// the API serves is resolved against it twice: lexically, then through
// filepath.EvalSymlinks with the result required to stay under the root,
// and it is finally opened through an os.Root, which refuses to leave the
// root even if a symlink is swapped in between.
type logsRoot struct {
	dir  string // absolute, symlinks resolved
	root *os.Root
}

// openLogsRoot opens the logs root. The directory must exist.
func openLogsRoot(dir string) (*logsRoot, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("logs root %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("logs root: %w", err)
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("logs root: %w", err)
	}
	return &logsRoot{dir: real, root: r}, nil
}

// Close releases the root.
func (l *logsRoot) Close() error { return l.root.Close() }

// resolve validates a work item id and, when file is not empty, a file
// name, and returns the path relative to the root that they resolve to
// after following symlinks. A target outside the root is reported as not
// found, so a probe cannot tell it from a missing file.
func (l *logsRoot) resolve(workItem, file string) (string, error) {
	if !validName(workItem) || (file != "" && !validName(file)) {
		return "", errBadName
	}
	p := filepath.Join(l.dir, workItem, file)
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return "", errNotFound
		}
		return "", err
	}
	rel, err := filepath.Rel(l.dir, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", errNotFound
	}
	return rel, nil
}

// openFile opens a stream file of a work item for reading. It returns
// errNotFound for a missing file, a directory or anything outside the root.
func (l *logsRoot) openFile(workItem, file string) (*os.File, fs.FileInfo, error) {
	rel, err := l.resolve(workItem, file)
	if err != nil {
		return nil, nil, err
	}
	f, err := l.root.Open(rel)
	if err != nil {
		return nil, nil, errNotFound
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, errNotFound
	}
	return f, fi, nil
}

// joined returns the absolute path of a validated work item's file as the
// store's importer reads it: <root>/<workItem>/<file>, so that the work
// item is the folder's name even when the file is a symlink.
func (l *logsRoot) joined(workItem, file string) string { return filepath.Join(l.dir, workItem, file) }

// listDir returns the regular files of a work item's directory whose
// names are valid; symlinks are followed only when they stay under the
// root. A missing work item is errNotFound.
func (l *logsRoot) listDir(workItem string) ([]fs.FileInfo, error) {
	rel, err := l.resolve(workItem, "")
	if err != nil {
		return nil, err
	}
	d, err := l.root.Open(rel)
	if err != nil {
		return nil, errNotFound
	}
	defer d.Close()
	if fi, err := d.Stat(); err != nil || !fi.IsDir() {
		return nil, errNotFound
	}
	ents, err := d.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("list work item: %w", err)
	}
	var out []fs.FileInfo
	for _, e := range ents {
		if !validName(e.Name()) {
			continue
		}
		if _, err := l.resolve(workItem, e.Name()); err != nil {
			continue
		}
		fi, err := l.root.Stat(filepath.Join(rel, e.Name()))
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		out = append(out, fi)
	}
	return out, nil
}
