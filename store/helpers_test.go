package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/usage"
)

// fixtures is the repository's folder of real agent streams.
const fixtures = "../testdata/streams"

// newTestStore opens a fresh store: a file in a temporary folder, or a
// fresh PostgreSQL database when the suite runs against PostgreSQL
// (suite_pg_test.go).
func newTestStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(testDB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fixtureFiles lists the fixture stream files.
func fixtureFiles(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(fixtures, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := filepath.Ext(d.Name()); !d.IsDir() && (ext == ".jsonl" || ext == ".txt") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("only %d fixtures under %s", len(out), fixtures)
	}
	return out
}

// copyFile copies src to dst, creating dst's folder, and returns dst.
func copyFile(t testing.TB, src, dst string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dst, b)
	return dst
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

// mustImport imports roots and fails the test on any failure.
func mustImport(t testing.TB, s *Store, roots ...string) ingest.Result {
	t.Helper()
	res, err := ingest.Import(context.Background(), s, roots, tiered(ingest.Options{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed) > 0 {
		t.Fatalf("import failures: %v", res.Failed)
	}
	return res
}

// fake is a synthetic session for tests that need many sessions with
// chosen figures, written through the importer's own batch writer.
type fake struct {
	wi, file, agent string
	dur, tokens     int64
	usd             float64
	stalls, errs    int
	approvals       int
	flagged         bool
	started         time.Time
	model, final    string
	outcome         summary.Outcome
	// unknownCost leaves the cost unknown (usd is ignored).
	unknownCost bool
}

// writeFakes writes synthetic sessions as an import would.
func writeFakes(t testing.TB, s *Store, fakes []fake) {
	t.Helper()
	var rows []*sessionRow
	flush := func() {
		if err := s.writeBatch(context.Background(), rows); err != nil {
			t.Fatal(err)
		}
		rows = rows[:0]
	}
	for i, f := range fakes {
		rows = append(rows, fakeRow(t, f, i))
		if len(rows) == 1000 {
			flush()
		}
	}
	flush()
}

func fakeRow(t testing.TB, f fake, i int) *sessionRow {
	t.Helper()
	if f.agent == "" {
		f.agent = "claude"
	}
	if f.started.IsZero() {
		f.started = time.Now().Add(-time.Duration(i) * time.Minute)
	}
	end := f.started.Add(time.Duration(f.dur) * time.Millisecond)
	in, out := f.tokens*3/4, f.tokens/4
	usd := f.usd
	dur := f.dur
	it := 1
	if f.outcome == "" {
		f.outcome = summary.OutcomeCompleted
	}
	sum := &summary.Summary{
		WorkItemID: f.wi, FileName: f.file, Phase: "work", Iteration: &it, AgentKind: f.agent, Model: f.model,
		StartedAt: &f.started, EndedAt: &end, TotalDurationMs: &dur, InputTokens: &in, OutputTokens: &out,
		EstimatedUSD: &usd, CostSource: summary.CostHarness, Outcome: f.outcome,
		StallCount: f.stalls, ErrorCount: f.errs, ApprovalCount: f.approvals, Flagged: f.flagged,
		ToolCalls:     []summary.ToolCall{{ID: fmt.Sprintf("toolu_%d", i), Name: "Bash", Kind: "execute", TurnID: "t1"}},
		ToolCallCount: 1,
		Turns:         []summary.Turn{{TurnID: "t1", ToolCallIDs: []string{fmt.Sprintf("toolu_%d", i)}}},
	}
	if f.flagged {
		sum.Flags = []summary.Flag{summary.FlagToolFailed}
		sum.Turns[0].Flags = []summary.Flag{summary.FlagToolFailed}
	}
	if f.unknownCost {
		sum.EstimatedUSD, sum.CostSource = nil, summary.CostUnknown
	}
	if f.final != "" {
		sum.FinalAssistantMessage = &f.final
	}
	sess := &ingest.Session{Summary: sum, File: ingest.File{Path: "/fake/" + f.wi + "/" + f.file, Size: 100, MTime: end.UnixMilli(),
		Layout: ingest.Layout{WorkItemID: f.wi, FileName: f.file, Phase: "work", Iteration: &it}}}
	r, err := newSessionRow(sess, sliceList[summary.ReviewEvent]{{Type: summary.ReviewPrompt, Actor: "user", Summary: "go", Line: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// tiered is an import's options with the default review-events tier, as
// `sift import` configures it: a session past it keeps no review events.
func tiered(o ingest.Options) ingest.Options {
	if o.KeepEvents == nil {
		o.KeepEvents = retention.Policy{}.KeepsEvents
	}
	return o
}

// finishInvocation records the end of a run as `sift run` does: when it
// was its work item's last, the work item's files are read (with the
// default options).
func finishInvocation(ctx context.Context, s *Store, id int64, end time.Time, exitCode int) error {
	last, err := s.FinishInvocation(ctx, id, end, exitCode)
	if err != nil || !last {
		return err
	}
	var wi string
	if err := s.r.QueryRowContext(ctx, `SELECT work_item_id FROM work_item_costs WHERE id = ?`, id).Scan(&wi); err != nil {
		return err
	}
	res, err := ingest.CompleteWorkItem(ctx, s, wi, nil, tiered(ingest.Options{}))
	if err != nil {
		return err
	}
	return res.Err()
}

// usageOf totals a store's usage rows as the program does (app.Usage).
func usageOf(ctx context.Context, s *Store, opt usage.Options) (usage.Report, error) {
	return usage.Total(opt, func(add func(usage.File) error) error {
		bad, err := s.UsageFiles(ctx, "", func(f UsageFile) error {
			return add(usage.File{WorkItemID: f.WorkItemID, FileName: f.FileName, AgentKind: f.AgentKind,
				SessionID: f.SessionID, Models: f.Models, Entries: f.Entries})
		})
		if err == nil && len(bad) > 0 {
			err = fmt.Errorf("unreadable usage rows: %v", bad)
		}
		return err
	})
}

// testRedactor is the program's redactor (app.Redactor).
var testRedactor = Redactor{Text: redact.Bytes, JSON: redact.JSONLine}

// onPG reports whether a test store runs on PostgreSQL (the suite's
// second run).
func onPG(s *Store) bool {
	_, ok := s.d.(pgDialect)
	return ok
}
