package ingest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// errLinkOutside is why a symlink met while walking a folder is not read.
var errLinkOutside = errors.New("symlink leads outside the folder being imported; not followed")

// walkRoot is a folder an import walks: a logs folder or an agent's
// history. Stream content is untrusted, and so is whatever an agent left
// in the folder: a link `ENG-1/passwd.jsonl → /etc/passwd` must not put
// /etc/passwd into the store. So a symlink met in the walk is followed
// only when its target, every link resolved and the path cleaned, lies
// inside the folder. A link to a folder is never descended: the walk
// reaches every folder inside the root by itself, so following one would
// only read files twice, or forever in a loop. A file found in the walk
// is opened through an os.Root on the folder, so a link swapped after the
// walk checked it still cannot lead out.
type walkRoot struct {
	// dir is what the walk lists: the folder's absolute path, or its
	// target when the folder itself is a symlink (filepath.WalkDir does
	// not descend a root that is a link).
	dir string
	// real is the folder with every symlink resolved: containment is
	// checked against it, and files are opened through it.
	real string
}

// newWalkRoot resolves a folder to walk.
func newWalkRoot(root string) (walkRoot, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return walkRoot{}, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return walkRoot{}, err
	}
	w := walkRoot{dir: abs, real: real}
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		w.dir = real
	}
	return w, nil
}

// entry returns what an entry of the walk that is not a folder stands
// for: the file to read, as a path relative to real, and its information,
// the target's for a symlink. A link that leaves the folder is
// errLinkOutside; a link in a loop or to nothing is the error resolving
// it. A link to a folder inside returns the folder's information: the
// caller skips it.
func (w walkRoot) entry(path string, d fs.DirEntry) (string, fs.FileInfo, error) {
	if d.Type()&fs.ModeSymlink == 0 {
		info, err := d.Info()
		if err != nil {
			return "", nil, err
		}
		rel, err := filepath.Rel(w.dir, path)
		return rel, info, err
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		// The system's word for it ("too many levels of symbolic
		// links", "no such file") is clearer than EvalSymlinks's.
		if _, serr := os.Stat(path); serr != nil {
			return "", nil, serr
		}
		return "", nil, err
	}
	rel, err := filepath.Rel(w.real, target)
	if err != nil || !filepath.IsLocal(rel) {
		return "", nil, errLinkOutside
	}
	info, err := os.Stat(target)
	if err != nil {
		return "", nil, err
	}
	return rel, info, nil
}

// open opens a file to import: a file found in a walk through an os.Root
// on the folder walked, which refuses any path that leaves it; a file
// named by the user as it is.
func (f *File) open() (*os.File, error) {
	if f.root == nil {
		return os.Open(f.Path)
	}
	return f.root.open(f.rel)
}

// folder is a folder a walk found files in, with symlinks resolved. It is
// opened as an os.Root when the first of its files is read, and that root
// serves every other (os.Root is safe for concurrent use), until close.
type folder struct {
	path string
	mu   sync.Mutex
	root *os.Root
}

// open opens a file of the folder by its path in it.
func (d *folder) open(rel string) (*os.File, error) {
	d.mu.Lock()
	if d.root == nil {
		rt, err := os.OpenRoot(d.path)
		if err != nil {
			d.mu.Unlock()
			return nil, err
		}
		d.root = rt
	}
	rt := d.root
	d.mu.Unlock()
	return rt.Open(rel)
}

// close closes the folder's root, if open; a later read opens it again.
func (d *folder) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.root != nil {
		d.root.Close()
		d.root = nil
	}
}
