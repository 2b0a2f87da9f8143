package store

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/capture"
)

// The retention suite: a tree full of decoys swept under many
// configurations and roots. After every sweep, every file outside the
// capture layout of a root sift owns is still there, unchanged, and
// nothing outside the root was touched (#2, #3).

// decoyAge is how old every file of the tree is: old enough for any
// RetainedDays below a decade to sweep it.
const decoyAge = 10 * 365 * 24 * time.Hour

// decoyTree is the tree one case sweeps.
type decoyTree struct {
	base    string // everything the test made is under it
	home    string // the fake $HOME
	marked  string // a logs root sift created (marked)
	layout  []string
	entries map[string]entry // by path: the state before the sweep
}

// entry is what a path was before the sweep.
type entry struct {
	mode   fs.FileMode
	size   int64
	mtime  time.Time
	target string // a link's target
}

// buildDecoys makes a marked root holding layout files and decoys, an
// outside folder its links point into, an unmarked copy and a fake home
// that holds layout files and a marker of its own.
func buildDecoys(t *testing.T) *decoyTree {
	t.Helper()
	base := t.TempDir()
	d := &decoyTree{base: base, home: filepath.Join(base, "home", "me"), marked: filepath.Join(base, "data", "logs")}
	file := func(p string, size int) {
		t.Helper()
		writeFile(t, p, []byte(strings.Repeat("x", size)))
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(base, "outside")
	file(filepath.Join(outside, "secret.jsonl"), 3000)
	file(filepath.Join(outside, "work-1-abcdef.jsonl"), 3000)
	file(filepath.Join(outside, "wi", "work-1-abcdef.jsonl"), 3000)
	file(filepath.Join(outside, "wi", "notes.log"), 3000)

	// populate fills a logs folder with layout files and decoys.
	populate := func(root string, layout bool) {
		for _, rel := range []string{"ENG-1/work-1-a1b2c3.jsonl", "ENG-1/rework-2-c0ffee.jsonl",
			"ENG-2/audit-llm-security:llm-review-3-d4e5f6.jsonl", "ENG-3/merge-1-0a1b2c3d4e.jsonl"} {
			file(filepath.Join(root, rel), 300<<10)
			if layout {
				d.layout = append(d.layout, filepath.Join(root, rel))
			}
		}
		for _, rel := range []string{
			// Depth 1 and 3.
			"work-1-a1b2c3.jsonl", "old.log", "old.txt", "stream.jsonl", "sift.db",
			"ENG-1/sub/work-1-a1b2c3.jsonl", "ENG-1/sub/deeper/work-1-a1b2c3.jsonl",
			// Near misses at depth 2.
			"ENG-1/agent.log", "ENG-1/agent.txt", "ENG-1/out.ndjson", "ENG-1/notes.jsonl",
			"ENG-1/work-1-a1b2c.jsonl", "ENG-1/work-1-A1B2C3.jsonl", "ENG-1/work-1-a1b2g3.jsonl",
			"ENG-1/work-1-a1b2c3.jsonl.bak", "ENG-1/work-1-a1b2c3.JSONL", "ENG-1/work-1-a1b2c3.log",
			"ENG-1/work-1-a1b2c3.txt", "ENG-1/.work-1-a1b2c3.jsonl", "ENG-1/work-a1b2c3.jsonl",
			"ENG-1/work-x-a1b2c3.jsonl", "ENG-1/-1-a1b2c3.jsonl", "ENG-1/work-1-a1b2c3.jsonl~",
			"ENG-1/README.md", "ENG-1/" + capture.MarkerName + ".bak",
			// Layout names in hidden folders.
			".git/work-1-a1b2c3.jsonl", ".git/objects/work-1-a1b2c3.jsonl", ".x/work-1-a1b2c3.jsonl",
			".hidden/ENG-1/work-1-a1b2c3.jsonl",
		} {
			file(filepath.Join(root, rel), 2000)
		}
		// A folder named like a stream file, holding one.
		file(filepath.Join(root, "ENG-4", "work-1-ffffff.jsonl", "work-1-a1b2c3.jsonl"), 2000)
		// Links to files and folders outside, named like the layout.
		link(filepath.Join(outside, "wi"), filepath.Join(root, "linked-wi"))
		link(filepath.Join(outside, "secret.jsonl"), filepath.Join(root, "ENG-1", "work-1-dddddd.jsonl"))
		link(filepath.Join(outside, "work-1-abcdef.jsonl"), filepath.Join(root, "ENG-5", "work-1-eeeeee.jsonl"))
		link(outside, filepath.Join(root, "ENG-6"))
		link("/", filepath.Join(root, "ENG-7"))
		link(filepath.Join(outside, "gone.jsonl"), filepath.Join(root, "ENG-8", "work-1-bbbbbb.jsonl"))
		// Links inside the root too: a link is never followed.
		link(filepath.Join(root, "ENG-1"), filepath.Join(root, "ENG-9"))
		link(filepath.Join(root, "ENG-1", "work-1-a1b2c3.jsonl"), filepath.Join(root, "ENG-10", "work-1-cccccc.jsonl"))
	}
	if _, err := capture.MakeRoot(d.marked); err != nil {
		t.Fatal(err)
	}
	populate(d.marked, true)
	populate(filepath.Join(base, "unmarked"), false)
	populate(d.home, false)
	writeFile(t, filepath.Join(d.home, capture.MarkerName), []byte("marked by hand"))
	link(d.marked, filepath.Join(base, "logs-link"))
	file(filepath.Join(base, "a-file"), 100)
	// Everything is old.
	old := time.Now().Add(-decoyAge)
	filepath.WalkDir(base, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if de.Type()&fs.ModeSymlink == 0 { // Chtimes follows links; one points at /
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	d.entries = d.snapshot(t)
	return d
}

// snapshot records every path under base without following links.
func (d *decoyTree) snapshot(t *testing.T) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(d.base, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		e := entry{mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime()}
		if fi.IsDir() {
			e.size, e.mtime = 0, time.Time{} // a removal inside changes them
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			e.target, _ = os.Readlink(p)
		}
		out[p] = e
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// check compares the tree with its snapshot: only the layout files of an
// accepted root may be gone, with work item folders they left empty.
func (d *decoyTree) check(t *testing.T, swept bool) (deleted int) {
	t.Helper()
	mayGo := map[string]bool{}
	if swept {
		for _, p := range d.layout {
			mayGo[p] = true
		}
	}
	now := d.snapshot(t)
	for p, before := range d.entries {
		after, ok := now[p]
		switch {
		case !ok && mayGo[p]:
			deleted++
		case !ok && before.mode.IsDir() && swept && filepath.Dir(p) == d.marked && onlyLayout(d, p):
			// A work item folder the sweep emptied.
		case !ok:
			t.Errorf("removed: %s", p)
		case after != before:
			t.Errorf("changed: %s: %+v, was %+v", p, after, before)
		}
	}
	for p := range now {
		if _, ok := d.entries[p]; !ok {
			t.Errorf("created: %s", p)
		}
	}
	return deleted
}

// onlyLayout reports whether a folder held nothing but layout files.
func onlyLayout(d *decoyTree, dir string) bool {
	for p := range d.entries {
		if filepath.Dir(p) == dir && !containsString(d.layout, p) {
			return false
		}
	}
	return true
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// sweepConfigs are the retention settings every root is swept with: the
// usual ones, the edges of each range and the values that overflowed.
func sweepConfigs() []Retention {
	var out []Retention
	for _, days := range []int{0, 1, 14, 36500, 36501, 106751, 106752, math.MaxInt, -1, math.MinInt} {
		out = append(out, Retention{RetainedDays: days})
	}
	for _, mb := range []int{1, 1 << 30, 1 << 43, 1 << 44, math.MaxInt, -1, math.MinInt} {
		out = append(out, Retention{MaxTotalSizeMb: mb})
	}
	return append(out,
		Retention{RetainedDays: 1, MaxTotalSizeMb: 1, BatchSize: 1},
		Retention{RetainedDays: 106752, MaxTotalSizeMb: 1 << 44, FlaggedFor: math.MaxInt64, FullEventsFor: math.MaxInt64,
			SummariesFor: math.MaxInt64},
		Retention{RetainedDays: 1, FlaggedFor: math.MinInt64, BatchSize: math.MaxInt},
	)
}

// TestSweepNeverLeavesTheLayout is the retention suite. A tree is built
// once per root and rebuilt only after a sweep removed something.
func TestSweepNeverLeavesTheLayout(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	roots := []struct {
		name  string
		root  func(d *decoyTree) string
		swept bool
	}{
		{"marked root", func(d *decoyTree) string { return d.marked }, true},
		{"marked root with a trailing slash", func(d *decoyTree) string { return d.marked + "/" }, true},
		{"symlinked root", func(d *decoyTree) string { return filepath.Join(d.base, "logs-link") }, false},
		{"unmarked root", func(d *decoyTree) string { return filepath.Join(d.base, "unmarked") }, false},
		{"home", func(d *decoyTree) string { return d.home }, false},
		{"home's parent", func(d *decoyTree) string { return filepath.Dir(d.home) }, false},
		{"the test's whole tree", func(d *decoyTree) string { return d.base }, false},
		{"a file", func(d *decoyTree) string { return filepath.Join(d.base, "a-file") }, false},
		{"a work item folder", func(d *decoyTree) string { return filepath.Join(d.marked, "ENG-1") }, false},
		{"a hidden folder", func(d *decoyTree) string { return filepath.Join(d.marked, ".git") }, false},
		{"a missing folder", func(d *decoyTree) string { return filepath.Join(d.base, "missing") }, false},
		{"the file system root", func(*decoyTree) string { return "/" }, false},
	}
	for _, rc := range roots {
		t.Run(rc.name, func(t *testing.T) {
			var d *decoyTree
			for _, r := range sweepConfigs() {
				if d == nil {
					d = buildDecoys(t)
					t.Setenv("HOME", d.home)
				}
				r.LogsRoot = rc.root(d)
				res, err := s.Sweep(ctx, r)
				if err != nil {
					t.Fatalf("%+v: sweep: %v", r, err)
				}
				deleted := d.check(t, rc.swept)
				if deleted != res.FilesDeleted {
					t.Errorf("%+v: %d layout files gone, the sweep says %d", r, deleted, res.FilesDeleted)
				}
				if !rc.swept && (deleted != 0 || res.LogsRefused == nil && rc.name != "a missing folder") {
					t.Errorf("%+v: %d files swept under a refused root (refusal: %v)", r, deleted, res.LogsRefused)
				}
				// The sweep still does its job where it may: a day
				// sweeps every old layout file, a MiB the oldest.
				if rc.swept && r.RetainedDays == 1 && deleted != len(d.layout) {
					t.Errorf("%+v: only %d of %d old layout files swept", r, deleted, len(d.layout))
				}
				if rc.swept && r.MaxTotalSizeMb == 1 && deleted < 1 {
					t.Errorf("%+v: a 1 MiB cap swept nothing", r)
				}
				if deleted > 0 || t.Failed() {
					d = nil
				}
			}
		})
	}
}

// TestSweepRemovalDoesNotFollowASwappedLink swaps a work item folder for a
// link to an outside folder holding a file of the same name between the
// listing and the removal: the removal refuses, the outside file stays.
func TestSweepRemovalDoesNotFollowASwappedLink(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	root := markedRoot(t)
	outside := filepath.Join(t.TempDir(), "outside")
	victim := filepath.Join(outside, "work-1-a1b2c3.jsonl")
	writeFile(t, victim, []byte("keep me\n"))
	logFileAt(t, root, "wi", "work-1-a1b2c3.jsonl", 10, time.Hour)
	rt, err := openLogsRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	var res SweepResult
	files := layoutFiles(rt, root, &res)
	if len(files) != 1 {
		t.Fatalf("listed %+v", files)
	}
	if err := os.RemoveAll(filepath.Join(root, "wi")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "wi")); err != nil {
		t.Fatal(err)
	}
	if err := s.removeLayoutFile(rt, files[0]); err == nil {
		t.Error("removal through a swapped-in link succeeded")
	}
	if !exists(victim) {
		t.Fatal("a file outside the root was removed through a link")
	}
	// A root swapped for a link after the check is refused at open.
	other := markedRoot(t)
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, root); err != nil {
		t.Fatal(err)
	}
	if _, err := openLogsRoot(root); err == nil {
		t.Error("a linked root was opened")
	}
}

// BenchmarkSweepFilesList measures a file pass that deletes nothing over
// 5,000 capture-layout files in 100 work item folders: the cost of
// listing and checking through os.Root.
func BenchmarkSweepFilesList(b *testing.B) {
	s := newTestStore(b)
	root := filepath.Join(b.TempDir(), "logs")
	if _, err := capture.MakeRoot(root); err != nil {
		b.Fatal(err)
	}
	for wi := range 100 {
		for i := range 50 {
			writeFile(b, filepath.Join(root, fmt.Sprintf("wi-%d", wi), fmt.Sprintf("work-%d-%06x.jsonl", i+1, i)), []byte("{}\n"))
		}
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		res, err := s.Sweep(ctx, Retention{LogsRoot: root, RetainedDays: 14})
		if err != nil || res.FilesKept != 5000 {
			b.Fatalf("%+v, %v", res, err)
		}
	}
}
