package usage

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/ingest"
)

// at is a unix ms time on 2026-03-02 (UTC).
func at(hour, minute int) int64 {
	return time.Date(2026, 3, 2, hour, minute, 0, 0, time.UTC).UnixMilli()
}

// history is a Claude Code history file of calls of 100 input and 10
// output tokens at the given times.
func history(session string, times ...int64) File {
	f := File{WorkItemID: "p", FileName: session + ".jsonl", AgentKind: "claude-history", SessionID: session,
		Models: []string{"claude-sonnet-4-5"}}
	for _, t := range times {
		f.Entries = append(f.Entries, ingest.UsageEntry{At: t, Input: 100, Output: 10})
	}
	return f
}

// capture is a captured run counted with its summary's totals.
func capture(agent, session string, t int64, cost *float64) File {
	return File{WorkItemID: "w", FileName: session + ".jsonl", AgentKind: agent, SessionID: session, Models: []string{""},
		Entries: []ingest.UsageEntry{{At: t, Input: 1000, Output: 50, CacheRead: 500}}, Capture: true, Cost: cost}
}

func total(t *testing.T, opt Options, files ...File) Report {
	t.Helper()
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	rep, err := Total(opt, func(add func(File) error) error {
		for _, f := range files {
			if err := add(f); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestBlocksFollowCcusage pins ccusage 18.0.11's billing blocks: a block
// starts at its first call's hour, lasts five hours, takes a call exactly
// five hours after its start, and a call later than that starts the next
// block at its own hour (a gap of more than five hours is such a call).
func TestBlocksFollowCcusage(t *testing.T) {
	t.Parallel()
	f := history("s1", at(10, 17), at(11, 0), at(15, 0), at(15, 1), at(19, 59), at(20, 30))
	// 15:01 is past 10:00 + 5 h; 19:59 is within 5 h of 15:00 but 20:30 is
	// not; a second file's call at 1:31 the next day comes after a gap.
	g := history("s2", time.Date(2026, 3, 3, 1, 31, 0, 0, time.UTC).UnixMilli())
	rep := total(t, Options{By: ByBlock}, f, g)
	want := []struct {
		key   string
		calls int64
		last  int64
	}{
		{"2026-03-02T10:00:00Z", 3, at(15, 0)},
		{"2026-03-02T15:00:00Z", 2, at(19, 59)},
		{"2026-03-02T20:00:00Z", 1, at(20, 30)},
		{"2026-03-03T01:00:00Z", 1, time.Date(2026, 3, 3, 1, 31, 0, 0, time.UTC).UnixMilli()},
	}
	if len(rep.Rows) != len(want) {
		t.Fatalf("%d blocks, want %d: %+v", len(rep.Rows), len(want), rep.Rows)
	}
	for i, w := range want {
		r := rep.Rows[i]
		if r.Key != w.key || r.Calls != w.calls || r.LastAt.UnixMilli() != w.last || r.End.Sub(*r.Start) != 5*time.Hour {
			t.Errorf("block %d: %s, %d calls, last %v, %v–%v; want %s, %d calls, last %v", i, r.Key, r.Calls, r.LastAt,
				r.Start, r.End, w.key, w.calls, time.UnixMilli(w.last).UTC())
		}
	}
	if rep.Totals.Calls != 7 {
		t.Errorf("totals: %d calls, want 7", rep.Totals.Calls)
	}
	// A window keeps blocks whole by their start: the 10:00 block starts
	// before 10:30, so its calls after 10:30 are not counted either.
	rep = total(t, Options{By: ByBlock, Since: time.UnixMilli(at(10, 30))}, f, g)
	if len(rep.Rows) != 3 || rep.Rows[0].Key != "2026-03-02T15:00:00Z" || rep.Totals.Calls != 4 {
		t.Errorf("since 10:30: %d blocks from %s, %d calls; want 3 from 15:00, 4 calls", len(rep.Rows), rep.Rows[0].Key, rep.Totals.Calls)
	}
}

// TestWindowIsTimes checks that Since and Until bound calls by their time,
// not by their day: --since 24h counts the calls of the last 24 hours.
func TestWindowIsTimes(t *testing.T) {
	t.Parallel()
	f := history("s1", at(1, 0), at(9, 0), at(18, 0))
	rep := total(t, Options{Since: time.UnixMilli(at(9, 0)), Until: time.UnixMilli(at(18, 0))}, f)
	if len(rep.Rows) != 1 || rep.Totals.Calls != 1 {
		t.Errorf("[9:00, 18:00): %d calls, want 1 (9:00)", rep.Totals.Calls)
	}
}

// TestUnknownCostIsNull checks that a cost nobody knows is null in the
// JSON and left out of the sum, never a 0 that reads as free; a capture's
// cost is its summary's, not the price table's.
func TestUnknownCostIsNull(t *testing.T) {
	t.Parallel()
	known := 0.25
	rep := total(t, Options{By: BySession}, capture("codex", "unknown", at(9, 0), nil),
		capture("claude", "known", at(10, 0), &known))
	if len(rep.Rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rep.Rows))
	}
	// The known cost sorts first.
	if r := rep.Rows[0]; r.Key != "known" || r.CostUSD == nil || *r.CostUSD != known || r.UnpricedCalls != 0 {
		t.Errorf("known: %+v", r)
	}
	if r := rep.Rows[1]; r.Key != "unknown" || r.CostUSD != nil || r.UnpricedCalls != 1 {
		t.Errorf("unknown: %+v", r)
	}
	if tot := rep.Totals; tot.CostUSD == nil || *tot.CostUSD != known || tot.UnpricedCalls != 1 || tot.TotalTokens != 2*1550 {
		t.Errorf("totals: %+v", tot)
	}
	b, err := json.Marshal(total(t, Options{}, capture("codex", "unknown", at(9, 0), nil)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"costUsd":null`) || strings.Contains(string(b), `"costUsd":0`) {
		t.Errorf("JSON of an unknown cost: %s", b)
	}
}

// TestSourceAndAgent checks --source and --agent: a harness's name keeps
// its captures and its history, a history's kind the same.
func TestSourceAndAgent(t *testing.T) {
	t.Parallel()
	files := []File{history("h", at(9, 0)), capture("claude", "c", at(10, 0), nil), capture("codex", "x", at(11, 0), nil)}
	for _, tc := range []struct {
		name  string
		opt   Options
		calls int64
	}{
		{"all", Options{}, 3},
		{"captures", Options{Source: SourceCaptures}, 2},
		{"histories", Options{Source: SourceHistories}, 1},
		{"claude", Options{Agent: "claude"}, 2},
		{"claude-history", Options{Agent: "claude-history"}, 2},
		{"claude captures", Options{Agent: "claude", Source: SourceCaptures}, 1},
	} {
		if got := total(t, tc.opt, files...).Totals.Calls; got != tc.calls {
			t.Errorf("%s: %d calls, want %d", tc.name, got, tc.calls)
		}
	}
}
