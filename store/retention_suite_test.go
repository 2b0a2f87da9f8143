package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
)

// retentionFixture is a store whose sessions' stream files are real
// files in a temporary folder, and a clock the test moves.
type retentionFixture struct {
	t   *testing.T
	s   *Store
	dir string
	now time.Time
}

func newRetentionFixture(t *testing.T) *retentionFixture {
	f := &retentionFixture{t: t, s: newTestStore(t), dir: t.TempDir(), now: time.Now()}
	f.s.now = func() time.Time { return f.now }
	return f
}

const day = 24 * time.Hour

// session writes a session that was last active age ago, with its stream
// file on disk, and returns its key and file.
func (f *retentionFixture) session(name string, age time.Duration, flagged bool) (review.SessionKey, string) {
	f.t.Helper()
	path := filepath.Join(f.dir, "wi", name+".jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		f.t.Fatal(err)
	}
	r := fakeRow(f.t, fake{wi: "wi", file: name + ".jsonl", started: f.now.Add(-age), flagged: flagged}, 0)
	r.file.Path = path
	if err := f.s.writeBatch(context.Background(), []*sessionRow{r}); err != nil {
		f.t.Fatal(err)
	}
	return review.SessionKey{WorkItemID: "wi", FileName: name + ".jsonl"}, path
}

// sweep runs a pass, failing the test on an error.
func (f *retentionFixture) sweep() SweepResult {
	f.t.Helper()
	res, err := f.s.Sweep(context.Background(), retention.Policy{})
	if err != nil {
		f.t.Fatal(err)
	}
	return res
}

// has reports whether a session's summary is stored.
func (f *retentionFixture) has(k review.SessionKey) bool {
	_, err := f.s.GetSession(context.Background(), k)
	return err == nil
}

// hasEvents reports whether a session's review events are stored.
func (f *retentionFixture) hasEvents(k review.SessionKey) bool {
	evs, err := f.s.ReviewEvents(context.Background(), k)
	return err == nil && len(evs) > 0
}

// TestSweepKeepsSessionsWhoseFilesExist: a session whose stream file is on
// disk stays whatever its age, through any number of sweeps (issue 16:
// the inbox's sweep removed summaries older than 90 days that the next
// import brought back).
func TestSweepKeepsSessionsWhoseFilesExist(t *testing.T) {
	t.Parallel()
	f := newRetentionFixture(t)
	old, _ := f.session("old", 200*day, false)
	ancient, _ := f.session("ancient", 3000*day, true)
	for range 5 {
		if res := f.sweep(); res.SummariesSwept != 0 {
			t.Fatalf("a sweep removed %d sessions whose files exist", res.SummariesSwept)
		}
		f.now = f.now.Add(100 * day)
	}
	if !f.has(old) || !f.has(ancient) {
		t.Fatal("a session whose file exists was swept")
	}
	if f.hasEvents(old) || f.hasEvents(ancient) {
		t.Fatal("the review events of old sessions outlived their tier")
	}
}

// TestSweepRemovesSessionsWhoseFilesAreGone: a session whose file was
// removed goes once it is past the summaries' tier, not before.
func TestSweepRemovesSessionsWhoseFilesAreGone(t *testing.T) {
	t.Parallel()
	f := newRetentionFixture(t)
	young, youngPath := f.session("young", 10*day, false)
	old, oldPath := f.session("old", 100*day, false)
	for _, p := range []string{youngPath, oldPath} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	res := f.sweep()
	if res.SummariesSwept != 1 || f.has(old) || !f.has(young) {
		t.Fatalf("sweep: %+v; old kept %v, young kept %v", res, f.has(old), f.has(young))
	}
	if idx, _ := f.s.StreamFiles(context.Background(), "wi"); len(idx) != 1 || idx[0].Path != youngPath {
		t.Errorf("the ingest index still holds the swept session's file: %+v", idx)
	}
	f.now = f.now.Add(79 * day)
	if res := f.sweep(); res.SummariesSwept != 0 || !f.has(young) {
		t.Fatalf("a session 89 days old was swept: %+v", res)
	}
	f.now = f.now.Add(2 * day)
	if res := f.sweep(); res.SummariesSwept != 1 || f.has(young) {
		t.Fatalf("a session 91 days old whose file is gone was kept: %+v", res)
	}
}

// TestSweepKeepsOpenFollowups: a session with an open needs_followup
// keeps its summary and review events whatever its age and wherever its
// file is, until the follow-up is closed; its decisions stay after that.
func TestSweepKeepsOpenFollowups(t *testing.T) {
	t.Parallel()
	f := newRetentionFixture(t)
	ctx := context.Background()
	k, path := f.session("followup", time.Hour, false)
	if err := f.s.Decide(ctx, review.Decision{Session: k, TurnID: "t1", Kind: review.NeedsFollowup, Note: "why?"}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	pinned, err := f.s.PinnedFiles(ctx)
	if err != nil || !pinned[path] {
		t.Fatalf("pinned files %v, %v; want the follow-up's", pinned, err)
	}
	for range 4 {
		f.now = f.now.Add(100 * day)
		if res := f.sweep(); res.SummariesSwept != 0 || res.EventsDeleted != 0 {
			t.Fatalf("a sweep removed an open follow-up: %+v", res)
		}
	}
	if !f.has(k) || !f.hasEvents(k) {
		t.Fatal("an open follow-up lost its summary or its review events")
	}
	// Closed by a session-level review, it goes like any other.
	if err := f.s.Decide(ctx, review.Decision{Session: k, Kind: review.Reviewed}); err != nil {
		t.Fatal(err)
	}
	if pinned, _ := f.s.PinnedFiles(ctx); len(pinned) != 0 {
		t.Fatalf("a closed follow-up's file is still pinned: %v", pinned)
	}
	res := f.sweep()
	if res.SummariesSwept != 1 || res.EventsDeleted != 1 || f.has(k) {
		t.Fatalf("a closed follow-up whose file is gone was kept: %+v", res)
	}
	if h, err := f.s.Decisions(ctx, k); err != nil || len(h) != 2 {
		t.Fatalf("decisions after the sweep: %d, %v; want both", len(h), err)
	}
}

// TestSweepJudgesOnlyThisHostsFiles: a session another host recorded is
// never swept for a file this host cannot see; its own are.
func TestSweepJudgesOnlyThisHostsFiles(t *testing.T) {
	t.Parallel()
	f := newRetentionFixture(t)
	here := f.s.host
	f.s.host = "other-machine"
	theirs, theirPath := f.session("theirs", 200*day, false)
	f.s.host = here
	mine, myPath := f.session("mine", 200*day, false)
	os.Remove(theirPath)
	os.Remove(myPath)
	res := f.sweep()
	if res.SummariesSwept != 1 || f.has(mine) || !f.has(theirs) {
		t.Fatalf("sweep: %+v; mine kept %v, theirs kept %v", res, f.has(mine), f.has(theirs))
	}
}

// TestSweepOfLegacyRows: rows stored before hosts were recorded belong to
// the first host that opened the database since (meta legacy_host).
func TestSweepOfLegacyRows(t *testing.T) {
	t.Parallel()
	f := newRetentionFixture(t)
	ctx := context.Background()
	k, path := f.session("legacy", 200*day, false)
	if _, err := f.s.w.ExecContext(ctx, `UPDATE agent_stream_summaries SET host_id = NULL`); err != nil {
		t.Fatal(err)
	}
	var legacy string
	if err := f.s.r.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'legacy_host'`).Scan(&legacy); err != nil || legacy != f.s.host {
		t.Fatalf("legacy host %q, %v; want %q", legacy, err, f.s.host)
	}
	if res := f.sweep(); res.SummariesSwept != 0 {
		t.Fatalf("a legacy row whose file exists was swept: %+v", res)
	}
	os.Remove(path)
	f.s.host = "another"
	if res := f.sweep(); res.SummariesSwept != 0 {
		t.Fatalf("another host swept a legacy row: %+v", res)
	}
	f.s.host = legacy
	if res := f.sweep(); res.SummariesSwept != 1 || f.has(k) {
		t.Fatalf("a legacy row whose file is gone was kept: %+v", res)
	}
}

// TestSweepDryRun lists what a pass would remove and removes nothing.
func TestSweepDryRun(t *testing.T) {
	t.Parallel()
	f := newRetentionFixture(t)
	ctx := context.Background()
	gone, path := f.session("gone", 100*day, false)
	kept, _ := f.session("kept", 100*day, false)
	os.Remove(path)
	res, err := f.s.Sweep(ctx, retention.Policy{DryRun: true, FileGone: func(p string) bool { return retention.FileGone(p) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.SummariesSwept != 1 || len(res.Sessions) != 1 || res.Sessions[0].Key != gone || res.Sessions[0].Path != path {
		t.Fatalf("dry run sessions: %+v", res)
	}
	if res.EventsDeleted != 2 || len(res.EventSessions) != 2 {
		t.Fatalf("dry run review events: %+v", res)
	}
	if !f.has(gone) || !f.hasEvents(gone) || !f.hasEvents(kept) {
		t.Fatal("a dry run removed something")
	}
	if res := f.sweep(); res.SummariesSwept != 1 || res.EventsDeleted != 2 {
		t.Fatalf("the pass after the dry run: %+v", res)
	}
}

// TestSweepRuns records passes and imports and reads them back.
func TestSweepRuns(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	if _, ok, err := s.LastSweepRun(ctx); ok || err != nil {
		t.Fatalf("a run before any: %v, %v", ok, err)
	}
	at := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	for i, r := range []SweepRun{
		{Started: at, Elapsed: time.Second, Runner: "inbox", FilesDeleted: 2, BytesDeleted: 100, Sessions: 1, EventSessions: 3},
		{Started: at.Add(time.Hour), Runner: "sift sweep", FilesDeleted: 1, Failures: 1, FirstFailure: "x: denied"},
	} {
		if err := s.RecordSweepRun(ctx, r); err != nil {
			t.Fatal(i, err)
		}
	}
	last, ok, err := s.LastSweepRun(ctx)
	if err != nil || !ok || last.Runner != "sift sweep" || last.FirstFailure != "x: denied" || !last.Started.Equal(at.Add(time.Hour)) {
		t.Fatalf("last run %+v, %v, %v", last, ok, err)
	}
	total, since, err := s.SweepTotals(ctx)
	if err != nil || !since.Equal(at) || total.FilesDeleted != 3 || total.Sessions != 1 || total.EventSessions != 3 || total.Failures != 1 {
		t.Fatalf("totals %+v since %v, %v", total, since, err)
	}
}

// unmigrate0015 takes a store back to before migration 0015, as a store
// of an earlier sift was.
func unmigrate0015(t *testing.T, s *Store) {
	t.Helper()
	unmigrate0016(t, s)
	for _, q := range []string{
		`DROP INDEX summaries_retention`,
		`ALTER TABLE agent_stream_summaries DROP COLUMN host_id`,
		`DROP TABLE sweep_runs`,
		`DROP TABLE import_runs`,
		`DELETE FROM meta WHERE key = 'legacy_host'`,
		`DELETE FROM schema_migrations WHERE version >= 15`,
	} {
		if _, err := s.w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestImportBuildsAnOpenFollowupsEvents: an import skips the review events
// of sessions past their tier, but not those of a session with an open
// follow-up, which keeps them whatever its age: a re-import of its grown
// file, or a rebuild, writes them.
func TestImportBuildsAnOpenFollowupsEvents(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	logs := t.TempDir()
	b, err := os.ReadFile("../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(logs, "wi-1", "work-1-a1b2c3.jsonl")
	writeFile(t, path, b)
	old := time.Now().Add(-40 * day)
	os.Chtimes(path, old, old)
	mustImport(t, s, logs)
	k := review.SessionKey{WorkItemID: "wi-1", FileName: "work-1-a1b2c3.jsonl"}
	if evs, _ := s.ReviewEvents(ctx, k); len(evs) != 0 {
		t.Fatal("a session 40 days old got review events")
	}
	if err := s.Decide(ctx, review.Decision{Session: k, Kind: review.NeedsFollowup, Note: "look"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Import(ctx, s, []string{logs}, tiered(ingest.Options{Force: true}), nil); err != nil {
		t.Fatal(err)
	}
	if evs, err := s.ReviewEvents(ctx, k); err != nil || len(evs) == 0 {
		t.Fatalf("the open follow-up's re-import wrote no review events: %v", err)
	}
	if _, err := ingest.Rebuild(ctx, s, []string{logs}, tiered(ingest.Options{}), nil); err != nil {
		t.Fatal(err)
	}
	if evs, err := s.ReviewEvents(ctx, k); err != nil || len(evs) == 0 {
		t.Fatalf("the open follow-up lost its review events in a rebuild: %v", err)
	}
}

// TestSweepCandidatesPlan pins the plan of the sweep's candidates: a
// range of the retention index read in its order, never a sort of every
// old session per batch.
func TestSweepCandidatesPlan(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "it reads SQLite's EXPLAIN QUERY PLAN")
	s := newTestStore(t)
	rows, err := s.r.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+summaryCandidatesSQL(s.d), 1, 0, "", "", "h", 10)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	got := strings.Join(plan, "\n")
	if !strings.HasPrefix(got, "SEARCH s USING INDEX summaries_retention ((activity_at,work_item_id,file_name)>(?,?,?) AND activity_at<?)") ||
		strings.Contains(got, "TEMP B-TREE") || strings.Contains(got, "SCAN") {
		t.Fatalf("plan:\n%s", got)
	}
}
