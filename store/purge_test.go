package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/layout"
	"github.com/agentsift/sift/core/review"
)

// rowsOf counts a session's rows in every table that has work_item_id and
// file_name columns, so that a table added later is checked too.
func rowsOf(t *testing.T, s *Store, key review.SessionKey) map[string]int {
	t.Helper()
	ctx := context.Background()
	out := map[string]int{}
	for _, tbl := range tableNames(t, s) {
		has := columnCount(t, s, tbl, "work_item_id", "file_name")
		if has != 2 || tbl == "purged_files" {
			continue
		}
		var n int
		if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+tbl+`" WHERE work_item_id = ? AND file_name = ?`,
			key.WorkItemID, key.FileName).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			out[tbl] = n
		}
	}
	return out
}

// purgeEnv is a store with a capture file in the logs folder (recorded by
// a finished invocation), a stream imported from another folder, a
// capture-named link in the logs folder to a file that is not a capture,
// and an agent history session; each has decisions.
type purgeEnv struct {
	s                        *Store
	logs, other              string
	capture, foreign, link   review.SessionKey
	capturePath, foreignPath string
	linkTarget               string
	history                  review.SessionKey
	historyPath              string
	historyRoots             []ingest.HistoryRoot
}

func newPurgeEnv(t *testing.T) *purgeEnv {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	e := &purgeEnv{s: newTestStore(t), logs: filepath.Join(dir, "logs"), other: filepath.Join(dir, "elsewhere")}
	e.capturePath = copyFile(t, filepath.Join(fixtures, auditFixture), filepath.Join(e.logs, "wi-1", "work-1-a1b2c3.jsonl"))
	copyFile(t, filepath.Join(fixtures, "claude", "evolve-2.0.65-oauth-write.jsonl"), filepath.Join(e.logs, "wi-1", "work-2-d4e5f6.jsonl"))
	e.foreignPath = copyFile(t, filepath.Join(fixtures, "claude", "evolve-2.0.65-oauth-write.jsonl"), filepath.Join(e.other, "proj", "run.jsonl"))
	// The link stays inside the logs folder: an import follows no link
	// out of it.
	e.linkTarget = copyFile(t, filepath.Join(fixtures, auditFixture), filepath.Join(e.logs, "keep", "notes.jsonl"))
	if err := os.MkdirAll(filepath.Join(e.logs, "wi-2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.linkTarget, filepath.Join(e.logs, "wi-2", "work-1-0a0b0c.jsonl")); err != nil {
		t.Fatal(err)
	}
	e.capture = review.SessionKey{WorkItemID: "wi-1", FileName: "work-1-a1b2c3.jsonl"}
	e.foreign = review.SessionKey{WorkItemID: "proj", FileName: "run.jsonl"}
	e.link = review.SessionKey{WorkItemID: "wi-2", FileName: "work-1-0a0b0c.jsonl"}
	id, err := e.s.RecordInvocation(ctx, Invocation{WorkItemID: "wi-1", Phase: "work", Iteration: 1, AgentKind: "claude",
		File: e.capturePath, Start: time.Now().Add(-time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if err := finishInvocation(ctx, e.s, id, time.Now(), 0); err != nil {
		t.Fatal(err)
	}
	mustImport(t, e.s, e.logs, e.other)
	if _, err := layout.MarkRoot(e.logs); err != nil {
		t.Fatal(err)
	}

	claude := filepath.Join(dir, "claude", "projects")
	e.historyPath = copyFile(t, filepath.Join(historyFixtures, "claude", "spotter-2.1.38-short-session.jsonl"),
		filepath.Join(claude, "-home-marco-projects-spotter", spotterSession+".jsonl"))
	e.historyRoots = []ingest.HistoryRoot{{Agent: agents.ClaudeHistory, Dir: claude}}
	importHistory(t, e.s, e.historyRoots)
	files, err := e.s.StreamFiles(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path == e.historyPath {
			e.history = review.SessionKey{WorkItemID: f.WorkItemID, FileName: f.FileName}
		}
	}
	for _, k := range []review.SessionKey{e.capture, e.foreign, e.link, e.history} {
		if err := e.s.Decide(ctx, review.Decision{Session: k, Kind: review.NeedsFollowup, Note: "x"}); err != nil {
			t.Fatalf("decide %s: %v", k, err)
		}
	}
	if rows := rowsOf(t, e.s, e.history); rows["usage_files"] != 1 {
		t.Fatalf("history session rows %v, want a usage row", rows)
	}
	return e
}

// ownsIn is the program's Owns for a logs folder (cmd/sift/internal/app):
// its capture files.
func ownsIn(logs string) Owns {
	return func(k review.SessionKey, path string) (bool, string) {
		return layout.OwnsFile(logs, k.WorkItemID, k.FileName, path)
	}
}

// removeOwned is the program's Remove (layout.RemoveOwned).
func removeOwned(k review.SessionKey, path string) (bool, string, error) {
	return layout.RemoveOwned(k.WorkItemID, k.FileName, path)
}

// purge plans and runs the purge of one session and checks it is gone
// from every table.
func (e *purgeEnv) purge(t *testing.T, key review.SessionKey) PurgeResult {
	t.Helper()
	ctx := context.Background()
	plan, err := e.s.PlanPurge(ctx, key, ownsIn(e.logs))
	if err != nil {
		t.Fatal(err)
	}
	if plan.Summaries != 1 || plan.Decisions != 1 || plan.IndexRows != 1 || plan.CostRows == 0 || len(plan.Files) != 1 {
		t.Fatalf("plan for %s: %+v", key, plan)
	}
	if rows := rowsOf(t, e.s, key); len(rows) == 0 {
		t.Fatal("the plan removed rows")
	}
	res, err := e.s.Purge(ctx, plan, removeOwned)
	if err != nil {
		t.Fatal(err)
	}
	if rows := rowsOf(t, e.s, key); len(rows) != 0 {
		t.Fatalf("rows of %s left after the purge: %v", key, rows)
	}
	return res
}

func TestPurgeDeletesOnlyCaptureFiles(t *testing.T) {
	t.Parallel()
	e := newPurgeEnv(t)
	ctx := context.Background()

	res := e.purge(t, e.capture)
	if res.Deleted != 1 || !res.Files[0].Delete {
		t.Fatalf("capture purge: %+v", res)
	}
	if _, err := os.Stat(e.capturePath); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the capture file is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.logs, "wi-1", "work-2-d4e5f6.jsonl")); err != nil {
		t.Fatalf("the work item's other file went too: %v", err)
	}

	for _, k := range []review.SessionKey{e.foreign, e.link} {
		res := e.purge(t, k)
		if res.Deleted != 0 || res.Kept != 1 || res.Files[0].Delete || res.Files[0].Why == "" {
			t.Fatalf("purge of %s: %+v", k, res)
		}
	}
	if _, err := os.Stat(e.foreignPath); err != nil {
		t.Fatalf("a file outside the logs folder was deleted: %v", err)
	}
	if _, err := os.Stat(e.linkTarget); err != nil {
		t.Fatalf("the target of a link in the logs folder was deleted: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(e.logs, "wi-2", "work-1-0a0b0c.jsonl")); err != nil {
		t.Fatalf("the link was deleted: %v", err)
	}
	res = e.purge(t, e.history)
	if res.Deleted != 0 || res.Kept != 1 {
		t.Fatalf("history purge: %+v", res)
	}
	if _, err := os.Stat(e.historyPath); err != nil {
		t.Fatalf("an agent's history file was deleted: %v", err)
	}

	// No import brings the purged sessions back.
	imp := mustImport(t, e.s, e.logs, e.other)
	if imp.Purged != 2 {
		t.Fatalf("re-import: %+v, want the 2 kept files skipped as purged", imp)
	}
	if imp := importHistory(t, e.s, e.historyRoots); imp.Purged != 1 {
		t.Fatalf("history re-import: %+v", imp)
	}
	if _, err := ingest.Rebuild(ctx, e.s, []string{e.logs, e.other}, tiered(ingest.Options{}), nil); err != nil {
		t.Fatal(err)
	}
	for _, k := range []review.SessionKey{e.capture, e.foreign, e.link, e.history} {
		if rows := rowsOf(t, e.s, k); len(rows) != 0 {
			t.Fatalf("%s came back: %v", k, rows)
		}
	}
	if n, _ := e.s.CountSessions(ctx, review.Query{}); n != 2 {
		t.Fatalf("%d sessions left, want the two not purged", n)
	}
}

func TestPurgeRefuses(t *testing.T) {
	t.Parallel()
	e := newPurgeEnv(t)
	ctx := context.Background()
	if _, err := e.s.PlanPurge(ctx, review.SessionKey{WorkItemID: "wi-1", FileName: "nope.jsonl"}, ownsIn(e.logs)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("purge of an unknown session: %v", err)
	}
	if _, err := e.s.RecordInvocation(ctx, Invocation{WorkItemID: "wi-1", Phase: "work", Iteration: 2, AgentKind: "claude"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.PlanPurge(ctx, e.capture, ownsIn(e.logs)); err == nil || !strings.Contains(err.Error(), "running") {
		t.Fatalf("purge in a running work item: %v", err)
	}
	// Without a logs folder nothing is sift's to delete.
	plan, err := e.s.PlanPurge(ctx, e.foreign, nil)
	if err != nil || plan.Files[0].Delete {
		t.Fatalf("plan without a logs folder: %+v %v", plan, err)
	}
}

func TestPurgeKeepsFilesOfAnUnmarkedLogsFolder(t *testing.T) {
	t.Parallel()
	e := newPurgeEnv(t)
	if err := os.Remove(filepath.Join(e.logs, layout.MarkerName)); err != nil {
		t.Fatal(err)
	}
	plan, err := e.s.PlanPurge(context.Background(), e.capture, ownsIn(e.logs))
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Files) != 1 || plan.Files[0].Delete || !strings.Contains(plan.Files[0].Why, "marker") {
		t.Fatalf("a capture file in an unmarked logs folder is planned for deletion: %+v", plan.Files)
	}
}
