package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentsift/sift/core/agents"
)

// MaxStreamBytes bounds a stream file a reader opens again (an export,
// the inbox's detail): far past any capture (MaxFileSizeMb) or agent
// history, so that only a file that is no stream is refused.
const MaxStreamBytes = 16 << 30

// RefusedError is OpenStream's error for a path it will not open; the
// caller uses what the store kept instead, and says Why.
type RefusedError struct {
	Path, Why string
}

func (e *RefusedError) Error() string { return e.Path + ": " + e.Why }

// OpenStream opens a stored session's stream file again, for reading. A
// session row's path is data (a teammate's row in a shared database may
// name any file), so the file must be a regular file of at most
// MaxStreamBytes inside one of roots (the logs folder, the agent history
// folders), opened through os.Root so that no link leads out of it, or a
// session of a root that is a database file itself (fileRoot): anything
// else is a *RefusedError. A file that is gone is nil, nil.
func OpenStream(roots []string, path string) (*os.File, error) {
	if path == "" {
		return nil, nil
	}
	if root, id, ok := fileRoot(roots, path); ok {
		// A session of a history whose root is a database file: rendered
		// from that file, which is the root, and from nothing else.
		switch st, err := os.Stat(root); {
		case errors.Is(err, fs.ErrNotExist):
			return nil, nil
		case err != nil:
			return nil, err
		case st.Mode().IsRegular():
			if f, ok, err := openStored(agents.StoredKey(root, id)); ok {
				return f, err
			}
		}
	}
	root, rel, ok := within(roots, path)
	if !ok {
		return nil, &RefusedError{path, "not inside the logs folder or an agent history folder sift reads"}
	}
	r, err := os.OpenRoot(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if container, id, ok := agents.SplitStoredKey(rel); ok {
		// A session of a database or a task folder, rendered again: its
		// container is held to the root as a file is (a row may name a
		// link that leads out of it).
		switch _, err := r.Stat(container); {
		case errors.Is(err, fs.ErrNotExist):
			return nil, nil
		case err != nil && strings.Contains(err.Error(), "escapes"):
			return nil, &RefusedError{path, "a link that leads out of " + root}
		case err != nil:
			return nil, err
		}
		if f, ok, err := openStored(agents.StoredKey(filepath.Join(root, container), id)); ok {
			return f, err
		}
	}
	// Stat first: opening a FIFO or a device would block or never end.
	if st, err := r.Stat(rel); err == nil && !st.Mode().IsRegular() {
		return nil, &RefusedError{path, "not a regular file"}
	}
	f, err := r.Open(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil && strings.Contains(err.Error(), "escapes"):
		return nil, &RefusedError{path, "a link that leads out of " + root}
	case err != nil:
		return nil, err
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, err
	case !st.Mode().IsRegular():
		f.Close()
		return nil, &RefusedError{path, "not a regular file"}
	case st.Size() > MaxStreamBytes:
		f.Close()
		return nil, &RefusedError{path, fmt.Sprintf("%d bytes, more than a stream file sift reads (%d)", st.Size(), int64(MaxStreamBytes))}
	}
	return f, nil
}

// fileRoot returns the root of roots that is itself the container of the
// stored session a key names (agents.StoredKey: a history whose root is a
// database file, as opencode's $OPENCODE_DB), and the session's id. Only
// the root itself is a container so: a key naming any other file, a link
// to the root among them, is no session of it.
func fileRoot(roots []string, path string) (root, id string, ok bool) {
	container, id, ok := agents.SplitStoredKey(path)
	if !ok || !filepath.IsAbs(container) {
		return "", "", false
	}
	container = filepath.Clean(container)
	for _, r := range roots {
		if r != "" && filepath.IsAbs(r) && filepath.Clean(r) == container {
			return container, id, true
		}
	}
	return "", "", false
}

// within returns the root of roots that holds path, and path relative to
// it.
func within(roots []string, path string) (root, rel string, ok bool) {
	if !filepath.IsAbs(path) {
		return "", "", false
	}
	path = filepath.Clean(path)
	for _, r := range roots {
		if r == "" || !filepath.IsAbs(r) {
			continue
		}
		rel, err := filepath.Rel(filepath.Clean(r), path)
		if err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.Clean(r), rel, true
		}
	}
	return "", "", false
}
