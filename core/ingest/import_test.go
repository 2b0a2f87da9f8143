package ingest

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/summary"
)

// The import against the real SQLite store is tested in package store
// (store imports this package; core never imports store). The tests here
// pin what the import does on its own: one parse per file, failures that
// stop a file and failures that stop the import, with memStore, a store
// that keeps what it is given in memory.

const fixtures = "../../testdata"

// memStore is a Store in memory.
type memStore struct {
	state State
	invs  Invocations
	// writeErr, when set, fails every Write.
	writeErr error

	mu      sync.Mutex
	written []*Session
	closed  bool
}

// memRow is a session as memStore writes it.
type memRow struct{ s *Session }

func (memRow) Weight() int { return 1 }

func (m *memStore) ImportState(context.Context) (State, error)       { return m.state, nil }
func (m *memStore) Invocations(context.Context) (Invocations, error) { return m.invs, nil }
func (m *memStore) ImportWriter(context.Context) (Writer, error)     { return m, nil }

// Encode keeps the session without its lists and review events, which
// the reader reuses (Writer.Encode).
func (m *memStore) Encode(s *Session) (Row, error) {
	s.Summary.ToolCalls, s.Summary.Stalls, s.Summary.Turns, s.Events = nil, nil, nil, nil
	return memRow{s}, nil
}

func (m *memStore) Write(_ context.Context, rows []Row) error {
	if m.writeErr != nil {
		return m.writeErr
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range rows {
		m.written = append(m.written, r.(memRow).s)
	}
	return nil
}

func (m *memStore) Close() error { m.closed = true; return nil }

// byName returns the written sessions by file name.
func (m *memStore) byName() map[string]*Session {
	out := map[string]*Session{}
	for _, s := range m.written {
		out[filepath.Base(s.File.Path)] = s
	}
	return out
}

// copyFixture copies a file of testdata to dst and returns dst.
func copyFixture(t *testing.T, src, dst string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, src))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// logsWithHistory is a folder holding a capture and an agent's history
// transcript, which the import recognises by its shape.
func logsWithHistory(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	copyFixture(t, "streams/claude/evolve-2.1.7-run1-write-file.jsonl", filepath.Join(root, "wi-1", "work-1-a1b2c3.jsonl"))
	copyFixture(t, "streams/codex/takopi-banteg-commands-reasoning.jsonl", filepath.Join(root, "wi-1", "rework-2-d4e5f6.jsonl"))
	copyFixture(t, "history/claude/spotter-2.1.38-short-session.jsonl", filepath.Join(root, "proj", "s.jsonl"))
	return root
}

// TestOneParsePerFile: streams and histories alike are parsed once, by
// the same reader; the parse of a history also feeds its usage.
func TestOneParsePerFile(t *testing.T) {
	t.Parallel()
	root := logsWithHistory(t)
	var parses atomic.Int64
	counted := func(p parser, r io.Reader, opt summary.Options, listen func(*event.Event)) (*summary.Summary, *summary.ReviewEvents, error) {
		parses.Add(1)
		return analyze(p, r, opt, listen)
	}
	m := &memStore{}
	im := &importer{st: m, analyze: counted, now: time.Now}
	res, err := im.run(context.Background(), Find([]string{root}))
	if err != nil || len(res.Failed) != 0 || res.Sessions != 3 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	if n := parses.Load(); n != 3 {
		t.Fatalf("%d parses of 3 files", n)
	}
	got := m.byName()
	if u := got["s.jsonl"].Usage; u == nil || len(u.Entries) == 0 || got["s.jsonl"].Summary.Phase != PhaseInteractive {
		t.Errorf("the history transcript: usage %+v, phase %q", u, got["s.jsonl"].Summary.Phase)
	}
	for _, name := range []string{"work-1-a1b2c3.jsonl", "rework-2-d4e5f6.jsonl"} {
		s := got[name]
		if s == nil || s.Usage != nil || s.Summary.WorkItemID != "wi-1" || s.Summary.ToolCallCount == 0 || !s.NoRun {
			t.Errorf("%s: %+v", name, s)
		}
	}
	if !m.closed {
		t.Error("the writer was not closed")
	}
}

// TestSummarizerFailureIsAFailedFile: a summarizer that fails, or panics,
// on one file fails that file, in one line; the import goes on.
func TestSummarizerFailureIsAFailedFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, want string
		fail       func()
	}{
		{"error", "summarizer says no", nil},
		{"panic", "summarizer failed: boom and more", func() { panic("boom\nand more") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := logsWithHistory(t)
			failing := func(p parser, r io.Reader, opt summary.Options, listen func(*event.Event)) (*summary.Summary, *summary.ReviewEvents, error) {
				if opt.Agent != "codex" {
					return analyze(p, r, opt, listen)
				}
				if tc.fail != nil {
					tc.fail()
				}
				return nil, nil, errors.New("summarizer says no")
			}
			// The codex capture is the one its recorded run declares.
			m := &memStore{invs: Invocations{"wi-1": {{Phase: "rework", Iteration: ptr(2), Agent: "codex"}}}}
			im := &importer{st: m, analyze: failing, now: time.Now}
			res, err := im.run(context.Background(), Find([]string{root}))
			if err != nil {
				t.Fatalf("a failed file stopped the import: %v", err)
			}
			if len(res.Failed) != 1 || !strings.HasSuffix(res.Failed[0].Path, "rework-2-d4e5f6.jsonl") ||
				res.Failed[0].Reason != tc.want || res.Sessions != 2 || len(m.written) != 2 {
				t.Fatalf("result %+v, %d written", res, len(m.written))
			}
		})
	}
}

// TestWriteFailureStopsTheImport: a store that cannot write (a full disk)
// stops the import with its error.
func TestWriteFailureStopsTheImport(t *testing.T) {
	t.Parallel()
	full := errors.New("disk full")
	m := &memStore{writeErr: full}
	res, err := Import(context.Background(), m, []string{logsWithHistory(t)}, Options{BatchSize: 1}, nil)
	if !errors.Is(err, full) || !strings.HasPrefix(err.Error(), "import: ") || res.Sessions != 0 {
		t.Fatalf("import into a store that cannot write: %+v, %v", res, err)
	}
	if !m.closed {
		t.Error("the writer was not closed")
	}
}

// TestImportSkipsDefersAndForgets: the store's state decides what is
// read: unchanged files are skipped, a running work item's files deferred,
// purged files never read again, unless forced.
func TestImportSkipsDefersAndForgets(t *testing.T) {
	t.Parallel()
	root := logsWithHistory(t)
	found := Find([]string{root})
	st := State{Indexed: map[string]FileStat{}, Running: map[string]bool{"proj": true}, Purged: map[string]bool{}}
	for _, f := range found.Files {
		switch f.Layout.FileName {
		case "work-1-a1b2c3.jsonl":
			st.Indexed[f.Path] = FileStat{Size: f.Size, MTime: f.MTime}
		case "rework-2-d4e5f6.jsonl":
			st.Purged[f.Path] = true
		}
	}
	m := &memStore{state: st}
	res, err := ImportFound(context.Background(), m, found, Options{}, nil)
	if err != nil || res.Skipped != 1 || res.Purged != 1 || res.Deferred != 1 || res.Sessions != 0 || res.Files != 3 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	res, err = Import(context.Background(), m, []string{root}, Options{Force: true}, nil)
	if err != nil || res.Sessions != 1 || res.Purged != 1 || res.Deferred != 1 {
		t.Fatalf("forced import: %+v, %v", res, err)
	}
}

// TestImportLeavesTheCollectorAlone: an import tunes no garbage collector
// setting (store.BulkGC, which held the collector off until a 384 MB
// heap, is gone); its memory is what it allocates.
func TestImportLeavesTheCollectorAlone(t *testing.T) {
	pct := debug.SetGCPercent(100)
	defer debug.SetGCPercent(pct)
	limit := debug.SetMemoryLimit(-1)
	var seen []int
	progress := func(Progress) { seen = append(seen, debug.SetGCPercent(100)) }
	if _, err := Import(context.Background(), &memStore{}, []string{logsWithHistory(t)}, Options{}, progress); err != nil {
		t.Fatal(err)
	}
	for _, p := range append(seen, debug.SetGCPercent(100)) {
		if p != 100 {
			t.Fatalf("GC percent %d during or after an import, want 100 untouched", p)
		}
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Fatalf("memory limit %d after an import, was %d", got, limit)
	}
}

func ptr[T any](v T) *T { return &v }
