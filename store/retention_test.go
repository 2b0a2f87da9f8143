package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/review"
)

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

func TestSweepFilesByAgeAndFlags(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := markedRoot(t)
	day := 24 * time.Hour
	fresh := logFileAt(t, root, "wi-1", "work-1-000001.jsonl", 100, 2*day)
	old := logFileAt(t, root, "wi-1", "work-1-000002.jsonl", 100, 20*day)
	oldFlagged := logFileAt(t, root, "wi-2", "work-1-000003.jsonl", 100, 20*day)
	oldFollowup := logFileAt(t, root, "wi-2", "work-1-000004.jsonl", 100, 20*day)
	ancientFlagged := logFileAt(t, root, "wi-3", "work-1-000005.jsonl", 100, 40*day)
	notStream := logFileAt(t, root, "wi-3", "README.md", 100, 400*day)
	// The index and summaries say which sessions are flagged.
	mark := func(path string, flagged bool) {
		r := fakeRow(t, fake{wi: filepath.Base(filepath.Dir(path)), file: filepath.Base(path), flagged: flagged}, 0)
		r.c.path = path
		if err := s.writeBatch(ctx, []*sessionRow{r}); err != nil {
			t.Fatal(err)
		}
	}
	mark(old, false)
	mark(oldFlagged, true)
	mark(oldFollowup, false)
	mark(ancientFlagged, true)
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi-2", FileName: filepath.Base(oldFollowup)}, TurnID: "t1", Kind: review.NeedsFollowup}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Sweep(ctx, Retention{LogsRoot: root, RetainedDays: 14})
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
	if idx, _ := s.StreamFiles(ctx, ""); len(idx) != 2 {
		t.Errorf("ingest index keeps %d rows, want the 2 kept files", len(idx))
	}
	// RetainedDays 0 keeps files forever.
	if res, err := s.Sweep(ctx, Retention{LogsRoot: root}); err != nil || res.FilesDeleted != 0 {
		t.Fatalf("sweep with RetainedDays 0: %+v, %v", res, err)
	}
}

func TestSweepFilesBySizeInBatches(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := markedRoot(t)
	var files []string
	for i := range 10 { // 10 files of 256 KiB, file 0 the oldest
		files = append(files, logFileAt(t, root, "wi", "work-1-00000"+string(rune('0'+i))+".jsonl", 256<<10, time.Duration(10-i)*time.Hour))
	}
	mark := fakeRow(t, fake{wi: "wi", file: filepath.Base(files[0]), flagged: true}, 0)
	mark.c.path = files[0]
	if err := s.writeBatch(ctx, []*sessionRow{mark}); err != nil {
		t.Fatal(err)
	}
	// 1 MiB cap: the six oldest go, flagged or not, whatever their age.
	res, err := s.Sweep(ctx, Retention{LogsRoot: root, RetainedDays: 30, MaxTotalSizeMb: 1, BatchSize: 4})
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

func TestSweepReviewData(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	now := time.Now()
	day := 24 * time.Hour
	writeFakes(t, s, []fake{
		{wi: "w", file: "fresh", started: now.Add(-time.Hour)},
		{wi: "w", file: "3d", started: now.Add(-3 * day)},
		{wi: "w", file: "3d-flagged", started: now.Add(-3 * day), flagged: true},
		{wi: "w", file: "3d-followup", started: now.Add(-3 * day)},
		{wi: "w", file: "40d-flagged", started: now.Add(-40 * day), flagged: true},
		{wi: "w", file: "100d", started: now.Add(-100 * day)},
		{wi: "w", file: "100d-decided", started: now.Add(-100 * day)},
		{wi: "w", file: "100d-recent", started: now.Add(-100 * day)},
	})
	for _, d := range []review.Decision{
		{Session: review.SessionKey{WorkItemID: "w", FileName: "3d-followup"}, Kind: review.NeedsFollowup},
		{Session: review.SessionKey{WorkItemID: "w", FileName: "100d-decided"}, Kind: review.Reviewed, CreatedAt: now.Add(-95 * day)},
		{Session: review.SessionKey{WorkItemID: "w", FileName: "100d-recent"}, Kind: review.Reviewed, CreatedAt: now.Add(-10 * day)},
	} {
		if err := s.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Sweep(ctx, Retention{BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	hasEvents := func(f string) bool {
		evs, err := s.ReviewEvents(ctx, review.SessionKey{WorkItemID: "w", FileName: f})
		return err == nil && len(evs) > 0
	}
	for f, want := range map[string]bool{"fresh": true, "3d": false, "3d-flagged": true, "3d-followup": true, "40d-flagged": false} {
		if hasEvents(f) != want {
			t.Errorf("review events of %s kept=%v, want %v", f, !want, want)
		}
	}
	for f, want := range map[string]bool{"40d-flagged": true, "100d": false, "100d-decided": false} {
		if _, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "w", FileName: f}); (err == nil) != want {
			t.Errorf("summary of %s: %v, want kept=%v", f, err, want)
		}
	}
	// A decision goes with its summary once it is as old as a summary
	// may be; a newer one stays until then.
	if h, _ := s.Decisions(ctx, review.SessionKey{WorkItemID: "w", FileName: "100d-decided"}); len(h) != 0 {
		t.Error("an old decision outlived its swept summary")
	}
	if h, _ := s.Decisions(ctx, review.SessionKey{WorkItemID: "w", FileName: "100d-recent"}); len(h) != 1 {
		t.Fatal("a recent decision went with its summary")
	}
	if res.EventsDeleted != 5 || res.SummariesSwept != 3 || res.DecisionsSwept != 1 || res.WorkItemsSwept != 0 {
		t.Errorf("sweep result %+v", res)
	}
	if h, _ := s.Decisions(ctx, review.SessionKey{WorkItemID: "w", FileName: "3d-followup"}); len(h) != 1 {
		t.Fatal("a decision whose summary exists was swept")
	}
	if _, err := s.WorkItemState(ctx, "w"); err != nil {
		t.Fatalf("work item with summaries swept: %v", err)
	}
	// While a rebuild runs, summaries are missing: decisions stay.
	s.now = func() time.Time { return now.Add(100 * day) }
	if _, err := s.w.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, '1')`, metaRebuilding); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Sweep(ctx, Retention{}); err != nil || res.DecisionsSwept != 0 {
		t.Fatalf("sweep during a rebuild: %+v, %v", res, err)
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, metaRebuilding); err != nil {
		t.Fatal(err)
	}
	res, err = s.Sweep(ctx, Retention{})
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := s.Decisions(ctx, review.SessionKey{WorkItemID: "w", FileName: "100d-recent"}); len(h) != 0 || res.DecisionsSwept == 0 {
		t.Fatalf("orphaned decisions not swept: %d left, %+v", len(h), res)
	}
	var pointers int
	s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM decision_latest WHERE decision_id NOT IN (SELECT id FROM review_decisions)`).Scan(&pointers)
	if pointers != 0 {
		t.Fatalf("%d dangling decision_latest rows", pointers)
	}
}

func TestSweepFailureIsLoud(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := markedRoot(t)
	a := logFileAt(t, root, "wi", "work-1-00000a.jsonl", 10, 30*24*time.Hour)
	b := logFileAt(t, root, "wi", "work-1-00000b.jsonl", 10, 30*24*time.Hour)
	if _, err := s.Sweep(ctx, Retention{LogsRoot: markedRoot(t)}); err != nil {
		t.Fatal(err)
	}
	last, err := s.LastSweep(ctx)
	if err != nil || last.IsZero() {
		t.Fatalf("LastSweep after a clean pass: %v, %v", last, err)
	}
	s.remove = func(dir *os.Root, name string) error {
		if filepath.Join(dir.Name(), name) == a {
			return &os.PathError{Op: "remove", Path: name, Err: syscall.EROFS}
		}
		return dir.Remove(name)
	}
	s.now = func() time.Time { return time.Now().Add(time.Hour) }
	res, err := s.Sweep(ctx, Retention{LogsRoot: root, RetainedDays: 1})
	if err == nil || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), "read-only file system") {
		t.Fatalf("sweep error %v, want one naming %s", err, a)
	}
	if exists(b) || !exists(a) || res.FilesDeleted != 1 || len(res.Failures) != 1 {
		t.Fatalf("the pass did not go on past the failure: %+v", res)
	}
	if again, _ := s.LastSweep(ctx); !again.Equal(last) {
		t.Fatalf("a failed sweep was recorded as successful: %v, was %v", again, last)
	}
	// A logs root that does not exist yet is not a failure.
	if _, err := s.Sweep(ctx, Retention{LogsRoot: filepath.Join(root, "nope")}); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("sweep of a missing logs root: %v", err)
	}
}

func TestSweepWorkItems(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	now := time.Now()
	writeFakes(t, s, []fake{{wi: "old", file: "a", started: now.Add(-10 * 24 * time.Hour)}, {wi: "new", file: "b", started: now.Add(80 * 24 * time.Hour)}})
	id, err := s.RecordInvocation(ctx, Invocation{WorkItemID: "old", Phase: "work", AgentKind: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishInvocation(ctx, id, now, 0); err != nil {
		t.Fatal(err)
	}
	s.now = func() time.Time { return now.Add(85 * 24 * time.Hour) }
	res, err := s.Sweep(ctx, Retention{})
	if err != nil {
		t.Fatal(err)
	}
	if res.SummariesSwept != 1 || res.WorkItemsSwept != 0 {
		t.Fatalf("a work item idle for 85 days was swept: %+v", res)
	}
	s.now = func() time.Time { return now.Add(91 * 24 * time.Hour) }
	if res, err = s.Sweep(ctx, Retention{}); err != nil || res.WorkItemsSwept != 1 {
		t.Fatalf("sweep: %+v, %v", res, err)
	}
	if _, err := s.WorkItemState(ctx, "old"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("work item without summaries kept: %v", err)
	}
	if costs, _ := s.Costs(ctx, "old"); len(costs) != 0 {
		t.Fatalf("%d cost rows outlived their work item", len(costs))
	}
	if _, err := s.WorkItemState(ctx, "new"); err != nil {
		t.Fatalf("work item with a summary swept: %v", err)
	}
}

// TestSweepRelativeLogsRoot runs a sweep on a relative logs folder (a
// relative --logs): flagged files are still recognised by their indexed
// absolute paths.
func TestSweepRelativeLogsRoot(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if _, err := capture.MakeRoot(filepath.Join(dir, "logs")); err != nil {
		t.Fatal(err)
	}
	s := newTestStore(t)
	ctx := context.Background()
	flagged := logFileAt(t, dir, "logs/wi", "work-1-00000f.jsonl", 10, 20*24*time.Hour)
	plain := logFileAt(t, dir, "logs/wi", "work-1-00000e.jsonl", 10, 20*24*time.Hour)
	r := fakeRow(t, fake{wi: "wi", file: filepath.Base(flagged), flagged: true}, 0)
	r.c.path = flagged
	if err := s.writeBatch(ctx, []*sessionRow{r}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sweep(ctx, Retention{LogsRoot: "logs", RetainedDays: 14}); err != nil {
		t.Fatal(err)
	}
	if !exists(flagged) || exists(plain) {
		t.Fatalf("flagged kept=%v, plain kept=%v", exists(flagged), exists(plain))
	}
}

// TestSweepShrinksTheFile checks that the database gives swept space back
// to the file system.
func TestSweepShrinksTheFile(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	now := time.Now()
	var fakes []fake
	for i := range 3000 {
		fakes = append(fakes, fake{wi: "w", file: strconv.Itoa(i), started: now.Add(-100 * 24 * time.Hour),
			final: strings.Repeat("a long final message ", 50)})
	}
	fakes = append(fakes, fake{wi: "w", file: "fresh", started: now})
	writeFakes(t, s, fakes)
	size := func() int64 {
		if _, err := s.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			t.Fatal(err)
		}
		var n int64
		for _, suffix := range []string{"", "-wal"} {
			if st, err := os.Stat(s.Path() + suffix); err == nil {
				n += st.Size()
			}
		}
		return n
	}
	before := size()
	res, err := s.Sweep(ctx, Retention{})
	if err != nil || res.SummariesSwept != 3000 {
		t.Fatalf("sweep: %+v, %v", res, err)
	}
	if after := size(); after > before/4 {
		t.Fatalf("database is %d bytes after sweeping nearly everything, was %d", after, before)
	}
	if _, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "w", FileName: "fresh"}); err != nil {
		t.Fatal(err)
	}
}

// TestSweepOverflowKeepsFreshFiles pins #3: RetainedDays from 106,752
// wrapped the age limit negative and MaxTotalSizeMb from 1<<44 wrapped the
// byte cap to 0; both swept a fresh file (one with an open follow-up).
func TestSweepOverflowKeepsFreshFiles(t *testing.T) {
	t.Parallel()
	for _, r := range []Retention{
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
			s := newTestStore(t)
			ctx := context.Background()
			root := markedRoot(t)
			fresh := logFileAt(t, root, "wi", "work-1-00000a.jsonl", 100, time.Minute)
			followup := logFileAt(t, root, "wi", "work-1-00000b.jsonl", 100, time.Minute)
			row := fakeRow(t, fake{wi: "wi", file: filepath.Base(followup)}, 0)
			row.c.path = followup
			if err := s.writeBatch(ctx, []*sessionRow{row}); err != nil {
				t.Fatal(err)
			}
			if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi", FileName: filepath.Base(followup)}, Kind: review.NeedsFollowup}); err != nil {
				t.Fatal(err)
			}
			r.LogsRoot = root
			res, err := s.Sweep(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			if !exists(fresh) || !exists(followup) || res.FilesDeleted != 0 {
				t.Fatalf("fresh kept=%v, follow-up kept=%v: %+v", exists(fresh), exists(followup), res)
			}
		})
	}
}

// markedRoot is a logs folder sift created and marked as its own.
func markedRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "logs")
	if _, err := capture.MakeRoot(root); err != nil {
		t.Fatal(err)
	}
	return root
}
