// Package retention is how long sift keeps what it recorded: the tiers
// of review data (Policy), which the store's data sweep applies, and the
// sweep of the logs folder's stream files (Sweep), which is told by the
// store which files its flagged sessions keep longer and its open
// follow-ups keep always, and which files to forget. The application
// layer runs the pass: the files first, then the data.
package retention

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/agentsift/sift/core/layout"
)

// SweepSpec says which stream files of a logs root a retention sweep
// deletes.
type SweepSpec struct {
	// Root is the logs folder. Only files of the capture layout directly
	// in its work item folders are ever deleted, and only when it is a
	// folder sift owns (layout.CheckSweepRoot); any other root is refused, with
	// SweepResult.LogsRefused saying why. A relative root is made
	// absolute; an empty one sweeps nothing.
	Root string
	// RetainFor deletes files last written longer ago; 0 keeps them
	// forever.
	RetainFor time.Duration
	// MaxTotalBytes deletes the oldest files, whatever their age and
	// Keep (not Pinned ones), until the total is under it; 0 disables.
	MaxTotalBytes int64
	// Keep holds files, by absolute path, kept longer than RetainFor:
	// each for its own time, when that is longer (the store's flagged
	// sessions and open follow-ups).
	Keep map[string]time.Duration
	// Pinned holds files, by absolute path, that neither their age nor
	// the size cap deletes (the store's open follow-ups). They count
	// towards the size cap: the cap passes over them to the next oldest.
	Pinned map[string]bool
	// DryRun deletes nothing: the result lists what the sweep would
	// delete (Deleted), and Forget is not called.
	DryRun bool
	// Forget, when set, is told the files each batch deleted, so that
	// an index of them (the store's) drops them.
	Forget func(ctx context.Context, paths []string) error
	// BatchSize is how many files one delete step handles; 0 means 500.
	BatchSize int
	// Now is the sweep's clock; zero means time.Now().
	Now time.Time

	// remove deletes a file by name in its folder: (*os.Root).Remove,
	// replaced by tests that need a deletion to fail.
	remove func(dir *os.Root, name string) error
}

// SweepResult is what a sweep of a logs root removed and kept.
type SweepResult struct {
	FilesDeleted int
	BytesDeleted int64
	// FilesBySize counts, of FilesDeleted, those removed by the size cap.
	FilesBySize int
	// Deleted lists the files deleted (or, dry, to delete), oldest
	// first, each with why.
	Deleted   []DeletedFile
	FilesKept int
	BytesKept int64
	Batches   int
	// Failures lists what could not be deleted or listed; Sweep also
	// returns them as its error.
	Failures []Failure
	// LogsRefused is the *layout.RootError of a logs root the sweep refused
	// (not sift's own, /, the home folder, a link, a file). Nothing was
	// swept; that is not a failure.
	LogsRefused error
}

// DeletedFile is a stream file a sweep deleted, or would.
type DeletedFile struct {
	Path  string
	Size  int64
	MTime time.Time
	// BySize is set when the size cap, not its age, deleted it.
	BySize bool
}

// Failure is a file or folder a sweep could not handle, and why.
type Failure struct {
	Path   string
	Reason string
}

// String returns "path: reason".
func (f Failure) String() string { return f.Path + ": " + f.Reason }

// logFile is a stream file of the capture layout under the logs root.
type logFile struct {
	path     string // absolute, as an index of the files holds it
	workItem string // the folder under the root
	name     string // the file's name in it
	size     int64
	mtime    time.Time
	bySize   bool // chosen by the size cap
}

// Sweep deletes the stream files of a logs root by age (Keep's kept
// longer) and then, oldest first, by the size cap, in batches. It deletes
// nothing but files of the capture layout, `<root>/<workItem>/<phase>-
// <iter>-<hex>.jsonl`, under a root sift owns: never a file at another
// depth or of another name, never in a hidden folder, never through a
// link. A root that does not exist is nothing to sweep. Any failure is in
// the result and returned (all of them joined); the sweep goes on past a
// file it could not delete.
func Sweep(ctx context.Context, spec SweepSpec) (SweepResult, error) {
	var res SweepResult
	if spec.Root == "" {
		return res, nil
	}
	if abs, err := filepath.Abs(spec.Root); err == nil {
		spec.Root = abs
	}
	if err := spec.sweep(ctx, &res); err != nil {
		res.Failures = append(res.Failures, Failure{spec.Root, err.Error()})
	}
	if len(res.Failures) == 0 {
		return res, nil
	}
	errs := make([]error, len(res.Failures))
	for i, f := range res.Failures {
		errs[i] = errors.New(f.String())
	}
	return res, errors.Join(errs...)
}

func (spec *SweepSpec) sweep(ctx context.Context, res *SweepResult) error {
	rt, err := openLogsRoot(spec.Root)
	var refused *layout.RootError
	switch {
	case errors.As(err, &refused):
		res.LogsRefused = refused
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return nil // nothing captured yet
	case err != nil:
		return err
	}
	defer rt.Close()
	if spec.BatchSize <= 0 {
		spec.BatchSize = 500
	}
	if spec.remove == nil {
		spec.remove = (*os.Root).Remove
	}
	now := spec.Now
	if now.IsZero() {
		now = time.Now()
	}
	files := layoutFiles(rt, spec.Root, res)
	sort.Slice(files, func(i, j int) bool { return files[i].mtime.Before(files[j].mtime) })
	del, keep := spec.choose(files, now, res)
	for _, f := range keep {
		res.FilesKept++
		res.BytesKept += f.size
	}
	if spec.DryRun {
		for _, f := range del {
			res.FilesDeleted++
			res.BytesDeleted += f.size
			res.Deleted = append(res.Deleted, f.deleted())
		}
		return nil
	}
	emptied := map[string]bool{}
	for start := 0; start < len(del); start += spec.BatchSize {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := del[start:min(start+spec.BatchSize, len(del))]
		var gone []string
		for _, f := range batch {
			if err := spec.removeLayoutFile(rt, f); err != nil && !errors.Is(err, fs.ErrNotExist) {
				res.Failures = append(res.Failures, Failure{f.path, reason(err)})
				continue
			}
			res.FilesDeleted++
			res.BytesDeleted += f.size
			res.Deleted = append(res.Deleted, f.deleted())
			gone = append(gone, f.path)
			emptied[f.workItem] = true
		}
		if spec.Forget != nil && len(gone) > 0 {
			if err := spec.Forget(ctx, gone); err != nil {
				return err
			}
		}
		res.Batches++
	}
	// A work item folder left empty goes too; rmdir fails harmlessly on
	// one that is not empty, and a link is never removed.
	for wi := range emptied {
		if fi, err := rt.Lstat(wi); err == nil && fi.IsDir() {
			rt.Remove(wi)
		}
	}
	return nil
}

// choose splits the files, oldest first, into those to delete, by age
// (Keep's kept longer, Pinned ones never) and then by the size cap
// (passing over Pinned ones), and those to keep.
func (spec *SweepSpec) choose(files []logFile, now time.Time, res *SweepResult) (del, keep []logFile) {
	var total int64
	for _, f := range files {
		limit := spec.RetainFor
		if k := spec.Keep[f.path]; spec.RetainFor > 0 && k > limit {
			limit = k
		}
		if spec.RetainFor > 0 && now.Sub(f.mtime) > limit && !spec.Pinned[f.path] {
			del = append(del, f)
			continue
		}
		keep = append(keep, f)
		total += f.size
	}
	if spec.MaxTotalBytes <= 0 || total <= spec.MaxTotalBytes {
		return del, keep
	}
	kept := keep[:0:0]
	for _, f := range keep {
		if total > spec.MaxTotalBytes && !spec.Pinned[f.path] {
			total -= f.size
			f.bySize = true
			res.FilesBySize++
			del = append(del, f)
			continue
		}
		kept = append(kept, f)
	}
	return del, kept
}

// deleted is the file as a sweep's result lists it.
func (f logFile) deleted() DeletedFile {
	return DeletedFile{Path: f.path, Size: f.size, MTime: f.mtime, BySize: f.bySize}
}

// openLogsRoot opens a logs root the sweep may work in, after
// layout.CheckSweepRoot, and checks that what it opened is the folder it checked
// (not a link swapped in meanwhile). Every later access goes through the
// *os.Root, which cannot leave the folder.
func openLogsRoot(dir string) (*os.Root, error) {
	if err := layout.CheckSweepRoot(dir); err != nil {
		return nil, err
	}
	rt, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	li, err1 := os.Lstat(dir)
	fi, err2 := rt.Stat(".")
	if err1 != nil || err2 != nil || !li.IsDir() || !os.SameFile(li, fi) {
		rt.Close()
		return nil, &layout.RootError{Dir: dir, Problem: layout.RootSymlink}
	}
	return rt, nil
}

// layoutFiles lists the capture-layout files under the root: regular
// files with a stream file's name, in a work item folder (not hidden, not
// a link) directly under it. Nothing else is looked at, and no link is
// followed. A folder that cannot be read is a failure in res.
func layoutFiles(rt *os.Root, root string, res *SweepResult) []logFile {
	top, err := readDir(rt, ".")
	if err != nil {
		res.Failures = append(res.Failures, Failure{root, reason(err)})
		return nil
	}
	var files []logFile
	for _, d := range top {
		if d.Type() != fs.ModeDir || !layout.IsWorkItemDir(d.Name()) {
			continue
		}
		wr, err := openWorkItem(rt, d.Name())
		if err != nil {
			res.Failures = append(res.Failures, Failure{filepath.Join(root, d.Name()), reason(err)})
			continue
		}
		entries, err := readDir(wr, ".")
		wr.Close()
		if err != nil {
			res.Failures = append(res.Failures, Failure{filepath.Join(root, d.Name()), reason(err)})
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !layout.IsLayoutPath(d.Name()+"/"+e.Name()) {
				continue
			}
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue // gone or replaced meanwhile
			}
			files = append(files, logFile{path: filepath.Join(root, d.Name(), e.Name()), workItem: d.Name(),
				name: e.Name(), size: info.Size(), mtime: info.ModTime()})
		}
	}
	return files
}

// openWorkItem opens a work item folder under the root as a root of its
// own, refusing it unless it is a real folder (not a link) there.
func openWorkItem(rt *os.Root, name string) (*os.Root, error) {
	wr, err := rt.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	li, err1 := rt.Lstat(name)
	fi, err2 := wr.Stat(".")
	if err1 != nil || err2 != nil || !li.IsDir() || !os.SameFile(li, fi) {
		wr.Close()
		return nil, fmt.Errorf("%s is not a folder of its own", name)
	}
	return wr, nil
}

// removeLayoutFile deletes one listed file: in its work item folder,
// opened afresh and checked, by name, so that the removal cannot follow a
// link whatever changed since the listing; a name that is no longer a
// regular file is left alone.
func (spec *SweepSpec) removeLayoutFile(rt *os.Root, f logFile) error {
	wr, err := openWorkItem(rt, f.workItem)
	if err != nil {
		return err
	}
	defer wr.Close()
	fi, err := wr.Lstat(f.name)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("no longer a regular file")
	}
	return spec.remove(wr, f.name)
}

// readDir lists a folder of a root.
func readDir(rt *os.Root, name string) ([]fs.DirEntry, error) {
	f, err := rt.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
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
