package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

func TestImportTestdata(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	files := fixtureFiles(t)
	var calls []ingest.Progress
	res, err := ingest.Import(ctx, s, []string{fixtures}, tiered(ingest.Options{}), func(p ingest.Progress) { calls = append(calls, p) })
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed) != 0 || res.Files != len(files) || res.Sessions != len(files) || res.Skipped != 0 {
		t.Fatalf("import: %+v, want %d files and sessions", res, len(files))
	}
	if res.Ignored != 2 { // FORMATS.md and SOURCES.md
		t.Errorf("ignored %d files, want 2", res.Ignored)
	}
	var total int64
	for _, f := range files {
		st, _ := os.Stat(f)
		total += st.Size()
	}
	if res.Bytes != total {
		t.Errorf("bytes %d, want %d", res.Bytes, total)
	}
	if len(calls) != len(files) || calls[len(calls)-1].FilesDone != len(files) || calls[len(calls)-1].BytesDone != total {
		t.Errorf("progress: %d calls, last %+v", len(calls), calls[len(calls)-1])
	}
	if n, _ := s.CountSessions(ctx, review.Query{}); n != len(files) {
		t.Fatalf("%d sessions stored, want %d", n, len(files))
	}
	// The import's large page cache is given back.
	var cache int
	if err := s.w.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&cache); !onPostgres() && (err != nil || cache != -2000) {
		t.Fatalf("writer cache_size after the import = %d, %v; want -2000", cache, err)
	}
	// Files outside the <workItem>/<phase>-<iter>-<hex6> layout: the folder
	// is the work item, the phase "work".
	sum, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "claude", FileName: "vincent-2.1.226-permission-denied-tool-error.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Phase != "work" || sum.Iteration != nil || sum.AgentKind != "claude" || sum.CostSource != summary.CostHarness ||
		len(sum.ToolCalls) != sum.ToolCallCount || sum.ToolCallCount == 0 || len(sum.Turns) == 0 || sum.ApprovalCount == 0 {
		t.Fatalf("summary: %+v", sum)
	}
	// Its events are months old: past the review-events tier, they are not
	// written (TestReviewEventsFollowTheTier has the recent case).
	evs, err := s.ReviewEvents(ctx, review.SessionKey{WorkItemID: "claude", FileName: sum.FileName})
	if err != nil || len(evs) != 0 {
		t.Fatalf("review events of an old session: %d, %v", len(evs), err)
	}
	idx, err := s.StreamFiles(ctx, "")
	if err != nil || len(idx) != len(files) {
		t.Fatalf("ingest index: %d rows, %v", len(idx), err)
	}
	for _, f := range idx {
		if !filepath.IsAbs(f.Path) || f.Size <= 0 || f.ModTime.IsZero() || f.AgentKind == "" {
			t.Errorf("index row %+v", f)
		}
	}
	// The stored JSON is the summary's: sorting by cost follows it.
	rows, err := pageRows(s.ListSessions(ctx, review.Query{Sort: review.SortCost}))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(rows); i++ {
		if a, b := rows[i-1].EstimatedUSD, rows[i].EstimatedUSD; b != nil && (a == nil || *a < *b) {
			t.Fatalf("cost order broken at %d: %v then %v", i, a, b)
		}
	}
}

func TestReimportSkipsUnchangedAndResummarizesGrown(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	src, err := os.ReadFile(filepath.Join(fixtures, "claude", "evolve-2.1.7-run2-resumed-multitool.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	half := bytes.Join(lines[:len(lines)/2], nil)
	grow := filepath.Join(root, "wi-7", "work-1-a1b2c3.jsonl")
	writeFile(t, grow, half)
	copyFile(t, filepath.Join(fixtures, "codex", "evolve-run1-reasoning-file-change.jsonl"), filepath.Join(root, "wi-7", "rework-2-00aa00.jsonl"))

	first := mustImport(t, s, root)
	if first.Sessions != 2 {
		t.Fatalf("first import %+v", first)
	}
	before, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi-7", FileName: "work-1-a1b2c3.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if before.Phase != "work" || before.Iteration == nil || *before.Iteration != 1 {
		t.Fatalf("phase %q iteration %v", before.Phase, before.Iteration)
	}
	again := mustImport(t, s, root)
	if again.Sessions != 0 || again.Skipped != 2 || again.Bytes != 0 {
		t.Fatalf("re-import of unchanged files: %+v", again)
	}
	// The capture goes on: the file grows.
	writeFile(t, grow, src)
	grown := mustImport(t, s, root)
	if grown.Sessions != 1 || grown.Skipped != 1 {
		t.Fatalf("re-import after growth: %+v", grown)
	}
	after, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi-7", FileName: "work-1-a1b2c3.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if after.LineCount <= before.LineCount || after.ByteCount != int64(len(src)) {
		t.Fatalf("grown file: %d lines (%d bytes), before %d", after.LineCount, after.ByteCount, before.LineCount)
	}
	// Same size, new content, new mtime: changed, re-summarized.
	changed := bytes.Replace(src, []byte(`"is_error":false`), []byte(`"is_error":true `), 1)
	if len(changed) != len(src) {
		t.Fatal("replacement changed the size")
	}
	writeFile(t, grow, changed)
	future := time.Now().Add(time.Minute)
	os.Chtimes(grow, future, future)
	if res := mustImport(t, s, root); res.Sessions != 1 {
		t.Fatalf("re-import after change: %+v", res)
	}
	if res := mustImport(t, s, grow); res.Sessions != 0 || res.Skipped != 1 {
		t.Fatalf("re-import of one named file: %+v", res)
	}
}

func TestImportBadInput(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	good := copyFile(t, filepath.Join(fixtures, "claude", "evolve-2.1.7-run1-write-file.jsonl"), filepath.Join(root, "wi", "work-1-abcdef.jsonl"))
	writeFile(t, filepath.Join(root, "wi", "screenshot.png"), []byte("\x89PNG\r\n\x1a\n\x00\x00"))
	writeFile(t, filepath.Join(root, "wi", "notes.md"), []byte("# notes\n"))
	writeFile(t, filepath.Join(root, "wi", "core-dump.log"), append([]byte("ELF"), make([]byte, 100)...))
	writeFile(t, filepath.Join(root, "wi", ".hidden.jsonl"), []byte("{}\n"))
	os.Symlink(filepath.Join(root, "gone.jsonl"), filepath.Join(root, "wi", "dangling.jsonl"))
	os.Symlink(filepath.Join(root, "wi", "loop.jsonl"), filepath.Join(root, "wi", "loop.jsonl"))
	unreadable := filepath.Join(root, "wi", "secret.jsonl")
	writeFile(t, unreadable, []byte(`{"type":"system","subtype":"init"}`+"\n"))
	os.Chmod(unreadable, 0)
	canRead := false
	if f, err := os.Open(unreadable); err == nil { // root reads anything
		canRead = true
		f.Close()
	}
	missing := filepath.Join(root, "no-such-dir")

	res, err := ingest.Import(ctx, s, []string{root, missing}, tiered(ingest.Options{}), nil)
	if err != nil {
		t.Fatalf("a bad file stopped the import: %v", err)
	}
	want := map[string]string{
		filepath.Join(root, "wi", "core-dump.log"):  "binary file",
		filepath.Join(root, "wi", "dangling.jsonl"): "no such file",
		filepath.Join(root, "wi", "loop.jsonl"):     "too many levels of symbolic links",
		missing:                                     "no such file",
	}
	if !canRead {
		want[unreadable] = "permission denied"
	}
	got := map[string]string{}
	for _, f := range res.Failed {
		got[f.Path] = f.Reason
	}
	for p, reason := range want {
		if !strings.Contains(got[p], reason) {
			t.Errorf("failure for %s = %q, want %q", p, got[p], reason)
		}
	}
	if len(got) != len(want) {
		t.Errorf("failures %v, want %d", res.Failed, len(want))
	}
	if res.Ignored != 2 { // the .png and the .md
		t.Errorf("ignored %d, want 2", res.Ignored)
	}
	if _, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi", FileName: filepath.Base(good)}); err != nil {
		t.Fatalf("the good file was not imported: %v", err)
	}
	// A summarizer failure is a failed file too, never a stopped import:
	// core/ingest's TestSummarizerFailureIsAFailedFile.
}

// TestImportDiskFull fills the database (SQLite's own size limit stands in
// for a full disk): the import stops with ErrFull, nothing half-written
// stays, and once there is room the next import completes.
func TestImportDiskFull(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "a full disk is simulated with SQLite's max_page_count")
	s := newTestStore(t)
	ctx := context.Background()
	var pages, size int
	if err := s.w.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if err := s.w.QueryRowContext(ctx, "PRAGMA page_size").Scan(&size); err != nil {
		t.Fatal(err)
	}
	// Room for 64 KiB more (one page of the store's 64 KiB), whatever
	// the page size: less than the fixtures take (two pages since the
	// search index's text is stored compressed, migration 0017).
	if _, err := s.w.ExecContext(ctx, "PRAGMA max_page_count = "+strconv.Itoa(pages+max(1, 64<<10/size))); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Import(ctx, s, []string{fixtures}, tiered(ingest.Options{BatchSize: 8}), nil)
	if !errors.Is(err, ErrFull) {
		t.Fatalf("import into a full database: %v (%+v), want ErrFull", err, res)
	}
	if !strings.Contains(err.Error(), "full") {
		t.Fatalf("error does not say the disk is full: %v", err)
	}
	n, _ := s.CountSessions(ctx, review.Query{})
	idx, _ := s.StreamFiles(ctx, "")
	if n != res.Sessions || len(idx) != res.Sessions {
		t.Fatalf("%d sessions and %d index rows stored, import reported %d", n, len(idx), res.Sessions)
	}
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "claude", FileName: "x"}, Kind: review.Reviewed}); err == nil {
		t.Fatal("a decision on a missing session was acknowledged")
	}
	if _, err := s.w.ExecContext(ctx, "PRAGMA max_page_count = 1073741823"); err != nil {
		t.Fatal(err)
	}
	res2 := mustImport(t, s, fixtures)
	if res2.Sessions+res.Sessions != len(fixtureFiles(t)) {
		t.Fatalf("after freeing room: %+v", res2)
	}
}

// TestReviewEventsFollowTheTier: a recent session's review events are
// written; an old one's, which the sweep would delete at once, are not.
func TestReviewEventsFollowTheTier(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	// No timestamps: the session's age is the file's, just written.
	copyFile(t, filepath.Join(fixtures, "codex", "takopi-banteg-commands-reasoning.jsonl"), filepath.Join(root, "wi", "work-1-aaaaaa.jsonl"))
	// Timestamps from 2026-08: months old.
	copyFile(t, filepath.Join(fixtures, "claude", "vincent-2.1.226-permission-denied-tool-error.jsonl"), filepath.Join(root, "wi", "work-1-bbbbbb.jsonl"))
	mustImport(t, s, root)
	recent, err := s.ReviewEvents(ctx, review.SessionKey{WorkItemID: "wi", FileName: "work-1-aaaaaa.jsonl"})
	if err != nil || len(recent) == 0 {
		t.Fatalf("recent session: %d review events, %v", len(recent), err)
	}
	old, err := s.ReviewEvents(ctx, review.SessionKey{WorkItemID: "wi", FileName: "work-1-bbbbbb.jsonl"})
	if err != nil || len(old) != 0 {
		t.Fatalf("old session: %d review events, %v", len(old), err)
	}
	// A configured tier of ten years keeps them.
	long := 10 * 365 * 24 * time.Hour
	if _, err := ingest.Import(ctx, s, []string{root}, ingest.Options{Force: true,
		KeepEvents: retention.Policy{FullEventsFor: long, FlaggedFor: long}.KeepsEvents}, nil); err != nil {
		t.Fatal(err)
	}
	old, err = s.ReviewEvents(ctx, review.SessionKey{WorkItemID: "wi", FileName: "work-1-bbbbbb.jsonl"})
	if err != nil || len(old) == 0 {
		t.Fatalf("old session under a ten-year tier: %d review events, %v", len(old), err)
	}
	// Back under the default tier, a new import drops them: events not
	// built are not written, and none stay from before.
	if _, err := ingest.Import(ctx, s, []string{root}, tiered(ingest.Options{Force: true}), nil); err != nil {
		t.Fatal(err)
	}
	var rows int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM review_events WHERE file_name = 'work-1-bbbbbb.jsonl'`).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("old session's review events rows after a default-tier import: %d, %v", rows, err)
	}
}
