package retention_test

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

	"github.com/agentsift/sift/core/config"
	"github.com/agentsift/sift/core/layout"
	"github.com/agentsift/sift/core/retention"
)

// settings is a sweep's settings as the configuration and `sift sweep`
// give them, turned into a SweepSpec as cmd/sift does (config.Days and
// config.MiB saturate: a huge setting never wraps).
type settings struct {
	RetainedDays   int
	MaxTotalSizeMb int
	FlaggedFor     time.Duration
	BatchSize      int
}

// spec is the SweepSpec of r for root, keeping the files of keep for
// r.FlaggedFor (30 days when 0, as the store's default tier).
func (r settings) spec(root string, keep ...string) retention.SweepSpec {
	flagged := r.FlaggedFor
	if flagged <= 0 {
		flagged = 30 * 24 * time.Hour
	}
	s := retention.SweepSpec{Root: root, RetainFor: config.Days(r.RetainedDays), MaxTotalBytes: config.MiB(r.MaxTotalSizeMb),
		BatchSize: r.BatchSize, Keep: map[string]time.Duration{}}
	for _, p := range keep {
		s.Keep[p] = flagged
	}
	return s
}

func writeFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// logFileAt writes a stream file of size bytes last written age ago.
func logFileAt(t *testing.T, root, wi, name string, size int, age time.Duration) string {
	t.Helper()
	p := filepath.Join(root, wi, name)
	writeFile(t, p, []byte(strings.Repeat("x", size-1)+"\n"))
	mt := time.Now().Add(-age)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
	return p
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// markedRoot is a logs folder sift created and marked as its own.
func markedRoot(t testing.TB) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "logs")
	if _, err := layout.MakeRoot(root); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestSweepFilesByAgeAndFlags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := markedRoot(t)
	day := 24 * time.Hour
	fresh := logFileAt(t, root, "wi-1", "work-1-000001.jsonl", 100, 2*day)
	old := logFileAt(t, root, "wi-1", "work-1-000002.jsonl", 100, 20*day)
	oldFlagged := logFileAt(t, root, "wi-2", "work-1-000003.jsonl", 100, 20*day)
	oldFollowup := logFileAt(t, root, "wi-2", "work-1-000004.jsonl", 100, 20*day)
	ancientFlagged := logFileAt(t, root, "wi-3", "work-1-000005.jsonl", 100, 40*day)
	notStream := logFileAt(t, root, "wi-3", "README.md", 100, 400*day)
	// The store says which files its flagged sessions and open
	// follow-ups keep (the store's TestKeptAndForgottenFiles), and
	// forgets the files deleted.
	spec := settings{RetainedDays: 14}.spec(root, oldFlagged, oldFollowup, ancientFlagged)
	indexed := map[string]bool{old: true, oldFlagged: true, oldFollowup: true, ancientFlagged: true}
	spec.Forget = func(_ context.Context, paths []string) error {
		for _, p := range paths {
			delete(indexed, p)
		}
		return nil
	}
	res, err := retention.Sweep(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{fresh: true, old: false, oldFlagged: true, oldFollowup: true, ancientFlagged: false, notStream: true} {
		if exists(p) != want {
			t.Errorf("%s exists=%v, want %v", p, !want, want)
		}
	}
	if res.FilesDeleted != 2 || res.BytesDeleted != 200 || res.FilesKept != 3 {
		t.Errorf("sweep result %+v", res)
	}
	if exists(filepath.Dir(ancientFlagged)) != true { // README.md is still there
		t.Error("a folder with a file left was removed")
	}
	if len(indexed) != 2 {
		t.Errorf("the index keeps %d files, want the 2 kept files", len(indexed))
	}
	// RetainedDays 0 keeps files forever.
	if res, err := retention.Sweep(ctx, settings{}.spec(root)); err != nil || res.FilesDeleted != 0 {
		t.Fatalf("sweep with RetainedDays 0: %+v, %v", res, err)
	}
}

func TestSweepFilesBySizeInBatches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := markedRoot(t)
	var files []string
	for i := range 10 { // 10 files of 256 KiB, file 0 the oldest
		files = append(files, logFileAt(t, root, "wi", "work-1-00000"+string(rune('0'+i))+".jsonl", 256<<10, time.Duration(10-i)*time.Hour))
	}
	// 1 MiB cap: the six oldest go, flagged or not, whatever their age.
	res, err := retention.Sweep(ctx, settings{RetainedDays: 30, MaxTotalSizeMb: 1, BatchSize: 4}.spec(root, files[0]))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range files {
		if exists(p) != (i >= 6) {
			t.Errorf("file %d exists=%v", i, exists(p))
		}
	}
	if res.FilesDeleted != 6 || res.FilesBySize != 6 || res.BytesKept != 4*256<<10 {
		t.Errorf("sweep result %+v", res)
	}
	if res.Batches < 2 {
		t.Errorf("6 deletes in batches of 4 took %d batches", res.Batches)
	}
}

// TestSweepRelativeLogsRoot runs a sweep on a relative logs folder (a
// relative --logs): kept files are still recognised by their absolute
// paths, as the store's index holds them.
func TestSweepRelativeLogsRoot(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if _, err := layout.MakeRoot(filepath.Join(dir, "logs")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	flagged := logFileAt(t, dir, "logs/wi", "work-1-00000f.jsonl", 10, 20*24*time.Hour)
	plain := logFileAt(t, dir, "logs/wi", "work-1-00000e.jsonl", 10, 20*24*time.Hour)
	if _, err := retention.Sweep(ctx, settings{RetainedDays: 14}.spec("logs", flagged)); err != nil {
		t.Fatal(err)
	}
	if !exists(flagged) || exists(plain) {
		t.Fatalf("flagged kept=%v, plain kept=%v", exists(flagged), exists(plain))
	}
}

// TestSweepOverflowKeepsFreshFiles pins #3: RetainedDays from 106,752
// wrapped the age limit negative and MaxTotalSizeMb from 1<<44 wrapped the
// byte cap to 0; both swept a fresh file (one with an open follow-up).
func TestSweepOverflowKeepsFreshFiles(t *testing.T) {
	t.Parallel()
	for _, r := range []settings{
		{RetainedDays: 106752},
		{RetainedDays: math.MaxInt},
		{MaxTotalSizeMb: 1 << 43},
		{MaxTotalSizeMb: 1 << 44},
		{MaxTotalSizeMb: math.MaxInt},
		{RetainedDays: 106752, MaxTotalSizeMb: 1 << 44, FlaggedFor: math.MaxInt64},
		{RetainedDays: 1, FlaggedFor: math.MaxInt64},
	} {
		t.Run(fmt.Sprintf("%d days %d MB", r.RetainedDays, r.MaxTotalSizeMb), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			root := markedRoot(t)
			fresh := logFileAt(t, root, "wi", "work-1-00000a.jsonl", 100, time.Minute)
			followup := logFileAt(t, root, "wi", "work-1-00000b.jsonl", 100, time.Minute)
			res, err := retention.Sweep(ctx, r.spec(root, followup))
			if err != nil {
				t.Fatal(err)
			}
			if !exists(fresh) || !exists(followup) || res.FilesDeleted != 0 {
				t.Fatalf("fresh kept=%v, follow-up kept=%v: %+v", exists(fresh), exists(followup), res)
			}
		})
	}
}

// The settings suite: a tree full of decoys swept under many
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
	populate := func(root string, inLayout bool) {
		for _, rel := range []string{"ENG-1/work-1-a1b2c3.jsonl", "ENG-1/rework-2-c0ffee.jsonl",
			"ENG-2/audit-llm-security:llm-review-3-d4e5f6.jsonl", "ENG-3/merge-1-0a1b2c3d4e.jsonl"} {
			file(filepath.Join(root, rel), 300<<10)
			if inLayout {
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
			"ENG-1/README.md", "ENG-1/" + layout.MarkerName + ".bak",
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
	if _, err := layout.MakeRoot(d.marked); err != nil {
		t.Fatal(err)
	}
	populate(d.marked, true)
	populate(filepath.Join(base, "unmarked"), false)
	populate(d.home, false)
	writeFile(t, filepath.Join(d.home, layout.MarkerName), []byte("marked by hand"))
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

// sweepConfigs are the settings settings every root is swept with: the
// usual ones, the edges of each range and the values that overflowed.
func sweepConfigs() []settings {
	var out []settings
	for _, days := range []int{0, 1, 14, 36500, 36501, 106751, 106752, math.MaxInt, -1, math.MinInt} {
		out = append(out, settings{RetainedDays: days})
	}
	for _, mb := range []int{1, 1 << 30, 1 << 43, 1 << 44, math.MaxInt, -1, math.MinInt} {
		out = append(out, settings{MaxTotalSizeMb: mb})
	}
	return append(out,
		settings{RetainedDays: 1, MaxTotalSizeMb: 1, BatchSize: 1},
		settings{RetainedDays: 106752, MaxTotalSizeMb: 1 << 44, FlaggedFor: math.MaxInt64},
		settings{RetainedDays: 1, FlaggedFor: math.MinInt64, BatchSize: math.MaxInt},
	)
}

// TestSweepNeverLeavesTheLayout is the settings suite. A tree is built
// once per root and rebuilt only after a sweep removed something.
func TestSweepNeverLeavesTheLayout(t *testing.T) {
	ctx := context.Background()
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
				res, err := retention.Sweep(ctx, r.spec(rc.root(d)))
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

// BenchmarkSweepFilesList measures a file pass that deletes nothing over
// 5,000 capture-layout files in 100 work item folders: the cost of
// listing and checking through os.Root.
func BenchmarkSweepFilesList(b *testing.B) {
	root := markedRoot(b)
	for wi := range 100 {
		for i := range 50 {
			writeFile(b, filepath.Join(root, fmt.Sprintf("wi-%d", wi), fmt.Sprintf("work-%d-%06x.jsonl", i+1, i)), []byte("{}\n"))
		}
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		res, err := retention.Sweep(ctx, settings{RetainedDays: 14}.spec(root))
		if err != nil || res.FilesKept != 5000 {
			b.Fatalf("%+v, %v", res, err)
		}
	}
}
