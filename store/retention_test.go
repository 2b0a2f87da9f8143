package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/core/review"
)

// TestKeptAndForgottenFiles: the store tells the file sweep which files
// to keep longer (flagged sessions, for FlaggedFor) and always (open
// follow-ups), and forgets the files it deleted (core/capture's
// TestSweepFilesByAgeAndFlags sweeps with them).
func TestKeptAndForgottenFiles(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	mark := func(path string, flagged bool) {
		r := fakeRow(t, fake{wi: filepath.Base(filepath.Dir(path)), file: filepath.Base(path), flagged: flagged}, 0)
		r.file.Path = path
		if err := s.writeBatch(ctx, []*sessionRow{r}); err != nil {
			t.Fatal(err)
		}
	}
	old, flagged, followup := "/logs/wi-1/work-1-000002.jsonl", "/logs/wi-2/work-1-000003.jsonl", "/logs/wi-2/work-1-000004.jsonl"
	mark(old, false)
	mark(flagged, true)
	mark(followup, false)
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi-2", FileName: filepath.Base(followup)}, TurnID: "t1", Kind: review.NeedsFollowup}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []retention.Policy{{}, {FlaggedFor: 7 * 24 * time.Hour}} {
		keep, err := s.KeptFiles(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		want := r.WithDefaults().FlaggedFor
		if len(keep) != 1 || keep[flagged] != want {
			t.Errorf("%+v: kept %v, want the flagged file for %s", r, keep, want)
		}
	}
	if pinned, err := s.PinnedFiles(ctx); err != nil || len(pinned) != 1 || !pinned[followup] {
		t.Errorf("pinned %v, %v; want the follow-up's file", pinned, err)
	}
	if err := s.ForgetFiles(ctx, []string{old, flagged}); err != nil {
		t.Fatal(err)
	}
	if idx, _ := s.StreamFiles(ctx, ""); len(idx) != 1 || idx[0].Path != followup {
		t.Errorf("ingest index after forgetting two files: %+v", idx)
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
	res, err := s.Sweep(ctx, retention.Policy{BatchSize: 2})
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
	// Decisions are never swept, not even once their summary is gone.
	for _, f := range []string{"100d-decided", "100d-recent", "3d-followup"} {
		if h, _ := s.Decisions(ctx, review.SessionKey{WorkItemID: "w", FileName: f}); len(h) != 1 {
			t.Errorf("the decision of %s was swept", f)
		}
	}
	if res.EventsDeleted != 5 || res.SummariesSwept != 3 || res.WorkItemsSwept != 0 {
		t.Errorf("sweep result %+v", res)
	}
	if _, err := s.WorkItemState(ctx, "w"); err != nil {
		t.Fatalf("work item with summaries swept: %v", err)
	}
	s.now = func() time.Time { return now.Add(1000 * day) }
	if res, err = s.Sweep(ctx, retention.Policy{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"100d-decided", "100d-recent", "3d-followup"} {
		if h, _ := s.Decisions(ctx, review.SessionKey{WorkItemID: "w", FileName: f}); len(h) != 1 {
			t.Errorf("the decision of %s was swept 1,000 days later", f)
		}
	}
}

// TestRecordSweep: only a pass its runner records is the last
// successful sweep; the review-data pass alone records nothing (a failed
// file pass must not be recorded as a success: cmd/sift's
// TestSweepOnceRecordsOnlyAWholePass).
func TestRecordSweep(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	if _, err := s.Sweep(ctx, retention.Policy{}); err != nil {
		t.Fatal(err)
	}
	if last, err := s.LastSweep(ctx); err != nil || !last.IsZero() {
		t.Fatalf("LastSweep after an unrecorded pass: %v, %v", last, err)
	}
	at := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	if err := s.RecordSweep(ctx, at); err != nil {
		t.Fatal(err)
	}
	if last, err := s.LastSweep(ctx); err != nil || !last.Equal(at) {
		t.Fatalf("LastSweep = %v, %v; want %v", last, err, at)
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
	if err := finishInvocation(ctx, s, id, now, 0); err != nil {
		t.Fatal(err)
	}
	s.now = func() time.Time { return now.Add(85 * 24 * time.Hour) }
	res, err := s.Sweep(ctx, retention.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if res.SummariesSwept != 1 || res.WorkItemsSwept != 0 {
		t.Fatalf("a work item idle for 85 days was swept: %+v", res)
	}
	s.now = func() time.Time { return now.Add(91 * 24 * time.Hour) }
	if res, err = s.Sweep(ctx, retention.Policy{}); err != nil || res.WorkItemsSwept != 1 {
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

// TestSweepShrinksTheFile checks that the database gives swept space back
// to the file system.
func TestSweepShrinksTheFile(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "the file and its freed pages are SQLite's")
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
	res, err := s.Sweep(ctx, retention.Policy{})
	if err != nil || res.SummariesSwept != 3000 {
		t.Fatalf("sweep: %+v, %v", res, err)
	}
	// Each table and index keeps its root page however empty: the
	// schema's floor, which a new migration raises, is not swept space.
	var roots, page int64
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE rootpage > 0`).Scan(&roots); err != nil {
		t.Fatal(err)
	}
	if err := s.r.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&page); err != nil {
		t.Fatal(err)
	}
	if after := size(); after-roots*page > before/4 {
		t.Fatalf("database is %d bytes after sweeping nearly everything (%d of them the schema's root pages), was %d",
			after, roots*page, before)
	}
	if _, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "w", FileName: "fresh"}); err != nil {
		t.Fatal(err)
	}
}
