package ingest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentsift/sift/core/agents"
)

// File is a stream file an import may read.
type File struct {
	// Path is absolute, as the store's ingest index holds it.
	Path string
	Size int64
	// MTime is the last write, in unix ms.
	MTime  int64
	Layout Layout
	// history is the format of a file found under a history root, and
	// parents the find's cache of Claude Code subagent links (parents.go).
	history agents.Kind
	parents *parentCalls
	// root and rel, for a file found by walking a folder, are the folder
	// (symlinks resolved) and the file's path in it, which open opens it
	// by; a file named by the user has neither.
	root *folder
	rel  string
	// named is set for a file the user named (not found in a folder):
	// it is refused unless a sniffer, a recorded run or its name says an
	// agent wrote it (reader.read), or Options.Summary.Agent forces it.
	named bool
	// pinned is set for the file of a session with an open follow-up
	// (State.Pinned): its review events are built whatever its age.
	pinned bool
	// prev is what the ingest index held of the file, when it did.
	prev FileStat
	// unchanged, failed and read say what the import did with the
	// file, for the count of its history (Result.Histories).
	unchanged, failed, read bool
	// lines, for a session of a database or a task folder
	// (storedSessions), renders it as its history's lines; Path is then
	// its key, which no file has.
	lines func() ([]byte, error)
	// project is the folder a history file's project stands for, when its
	// harness records it outside the session (Gemini CLI's projects.json):
	// the session's recorded folder when it records none itself.
	project string
}

// Failure is a file that could not be imported, and why.
type Failure struct {
	Path   string
	Reason string
}

// String returns "path: reason".
func (f Failure) String() string { return f.Path + ": " + f.Reason }

// Found is what a find met: the files to import, and the files and
// folders it could not read.
type Found struct {
	Files []File
	// Ignored counts files under a folder whose names are not stream
	// captures (.jsonl, .ndjson, .log, .txt).
	Ignored int
	Failed  []Failure
	// start is when the find began: an import's time counts from it.
	start time.Time
	// source and roots are where the find looked, for the record of an
	// import's run (Recorder).
	source Source
	roots  []string
	// folders are the folders its files are read through, by path.
	folders map[string]*folder
	// done are what the histories of stored sessions let go of when
	// the import ends (agents.History.Sessions).
	done []func()
	// histories count, per harness, what a find of the histories met
	// (FindHistory); the import adds what it did with it.
	histories []HistoryCount
}

// folder returns the folder at a path with symlinks resolved, one per
// path.
func (f *Found) folder(path string) *folder {
	d := f.folders[path]
	if d == nil {
		if f.folders == nil {
			f.folders = map[string]*folder{}
		}
		d = &folder{path: path}
		f.folders[path] = d
	}
	return d
}

// Close lets go of what a find keeps open (the stored sessions'
// histories) when it is not imported: an import closes its find itself.
func (f *Found) Close() { f.close() }

// close closes the folders the import read through, and lets go of what
// the stored sessions' histories kept open.
func (f *Found) close() {
	for _, d := range f.folders {
		d.close()
	}
	for _, done := range f.done {
		done()
	}
	f.done = nil
}

// Find walks the roots. A root that is a file is read whatever its name;
// in folders only stream captures are, hidden entries skipped, and
// symlinks followed only within the folder (walkRoot).
func Find(roots []string) *Found {
	return FindKnown(roots, nil)
}

// FindKnown is Find, then the files the store already knows of (its
// ingest index, its invocations' files) that the walk did not meet.
// Nobody named those just now, so each is read only if it lies, links
// resolved, inside its own folder, and through an os.Root on it: a
// capture replaced by a link to a file elsewhere is not read.
func FindKnown(roots, known []string) *Found {
	c := collector{seen: map[string]bool{}, out: &Found{start: time.Now(), roots: absPaths(roots)}}
	for _, root := range roots {
		c.root(root)
	}
	for _, p := range known {
		c.known(p)
	}
	return c.out
}

// collector gathers a find's files, each path once.
type collector struct {
	out  *Found
	seen map[string]bool
}

// add takes a file unless its path was met before.
func (cl *collector) add(f File) {
	abs, met := cl.meet(f.Path)
	if met {
		return
	}
	f.Path = abs
	f.Layout = ParseLayout(f.Path)
	cl.out.Files = append(cl.out.Files, f)
}

// met reports whether a path was met before, and marks it met.
func (cl *collector) met(path string) bool {
	_, met := cl.meet(path)
	return met
}

// meet is met that also returns the path made absolute.
func (cl *collector) meet(path string) (string, bool) {
	abs := absPath(path)
	if cl.seen[abs] {
		return abs, true
	}
	cl.seen[abs] = true
	return abs, false
}

func (cl *collector) fail(path string, err error) {
	cl.out.Failed = append(cl.out.Failed, Failure{path, reason(err)})
}

// root adds a root the user named: a file as it is, a folder walked.
func (cl *collector) root(root string) {
	info, err := os.Stat(root)
	if err != nil {
		cl.fail(root, err)
		return
	}
	if !info.IsDir() {
		cl.add(File{Path: root, Size: info.Size(), MTime: info.ModTime().UnixMilli(), named: true})
		return
	}
	w, err := newWalkRoot(root)
	if err != nil {
		cl.fail(root, err)
		return
	}
	err = filepath.WalkDir(w.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			cl.fail(path, err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if path != w.dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if d.Type()&fs.ModeSymlink == 0 && !isStreamName(d.Name()) {
			cl.out.Ignored++
			return nil
		}
		cl.entry(w, path, d)
		return nil
	})
	if err != nil {
		cl.fail(root, err)
	}
}

// entry adds a file or symlink met in a walk of w.
func (cl *collector) entry(w walkRoot, path string, d fs.DirEntry) {
	rel, info, err := w.entry(path, d)
	switch {
	case err != nil && (isStreamName(d.Name()) || errors.Is(err, errLinkOutside) && linkToDir(path)):
		// A refused path stays refused if the store knows it too.
		cl.met(path)
		cl.fail(path, err)
	case err != nil, info.IsDir():
		// A link to a folder inside is walked as itself; a link that
		// is not a stream file is not read.
	case !isStreamName(d.Name()):
		cl.out.Ignored++
	case info.Mode().IsRegular():
		cl.add(File{Path: path, Size: info.Size(), MTime: info.ModTime().UnixMilli(), root: cl.out.folder(w.real), rel: rel})
	}
}

// known adds a file the store knows of, within its own folder.
func (cl *collector) known(path string) {
	if cl.seen[absPath(path)] {
		return
	}
	w, err := newWalkRoot(filepath.Dir(path))
	if err != nil {
		cl.fail(path, err)
		return
	}
	fi, err := os.Lstat(path)
	if err != nil {
		cl.fail(path, err)
		return
	}
	rel, info, err := w.entry(path, fs.FileInfoToDirEntry(fi))
	switch {
	case err != nil:
		cl.met(path)
		cl.fail(path, err)
	case info.Mode().IsRegular():
		cl.add(File{Path: path, Size: info.Size(), MTime: info.ModTime().UnixMilli(), root: cl.out.folder(w.real), rel: rel})
	}
}

// existing keeps the paths that exist: the store's files that are gone
// are no failure of a rebuild or a completed work item.
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// absPath is path made absolute, or path when it cannot be.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// linkToDir reports whether a symlink leads to a folder.
func linkToDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// reason is an error as a failure's reason, without the path os errors
// repeat.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// absPaths is absPath of each path.
func absPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = absPath(p)
	}
	return out
}
