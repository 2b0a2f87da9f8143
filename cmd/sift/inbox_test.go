package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentsift/sift/store"
	"github.com/agentsift/sift/tui"
)

// demoNow is the fixed clock of the demo store in tests.
var demoNow = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

// demoStore is a real store in a temporary folder, filled from the
// embedded sample streams (copies of testdata/streams).
func demoStore(t testing.TB) *store.Store {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := seedDemo(context.Background(), st, dir, demoNow); err != nil {
		t.Fatal(err)
	}
	return st
}

// listAll pages through a query three rows at a time.
func listAll(t *testing.T, ad tui.Store, q tui.Query) ([]tui.Session, tui.Page) {
	t.Helper()
	var out []tui.Session
	var first tui.Page
	for off := 0; ; off += 3 {
		q.Offset, q.Limit = off, 3
		p, err := ad.ListSessions(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if off == 0 {
			first = p
		}
		out = append(out, p.Sessions...)
		if len(p.Sessions) < 3 {
			return out, first
		}
	}
}

func keys(ss []tui.Session) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Key().String())
	}
	return out
}

// TestInboxStoreAgreesWithMemStore pages the real store through the
// adapter and checks every order and filter against the tui's reference
// store holding the same summaries.
func TestInboxStoreAgreesWithMemStore(t *testing.T) {
	st := demoStore(t)
	ctx := context.Background()
	full, err := st.ListSessions(ctx, store.Query{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	var ss []tui.Session
	for _, s := range full {
		ss = append(ss, tui.Session{Summary: s})
	}
	ad, ref := newInboxStore(st), tui.NewMemStore(ss)
	// A decision, so that the undecided filter and the triage order have
	// something to do.
	d := tui.Decision{Session: ss[0].Key(), Decision: tui.DecisionReviewed, Reviewer: "t"}
	if err := ad.Decide(ctx, d); err != nil {
		t.Fatal(err)
	}
	if err := ref.Decide(ctx, d); err != nil {
		t.Fatal(err)
	}
	// A follow-up on a tool call of an unflagged session flags it in the
	// store's sense, not in its summary's: it must be listed once.
	for _, s := range ss {
		if s.Flagged || len(s.ToolCalls) == 0 {
			continue
		}
		d := tui.Decision{Session: s.Key(), TurnID: s.ToolCalls[0].TurnID, ToolCallID: s.ToolCalls[0].ID,
			Decision: tui.DecisionFollowup, Note: "look", Reviewer: "t"}
		if err := ad.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
		if err := ref.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
		break
	}
	queries := []tui.Query{
		{Sort: tui.SortTriage},
		{Sort: tui.SortTriage, FlaggedOnly: true},
		{Sort: tui.SortTriage, UndecidedOnly: true},
		{Sort: tui.SortTriage, Agent: "gemini"},
		{Sort: tui.SortTriage, Filter: "bash"},
		{Sort: tui.SortCost, Desc: true, GroupByWorkItem: true},
	}
	for _, k := range []tui.SortKey{tui.SortCost, tui.SortDuration, tui.SortStalls, tui.SortErrors, tui.SortApprovals, tui.SortTokens} {
		queries = append(queries, tui.Query{Sort: k, Desc: true}, tui.Query{Sort: k})
	}
	for _, q := range queries {
		t.Run(fmt.Sprintf("%+v", q), func(t *testing.T) {
			got, gp := listAll(t, ad, q)
			q.Limit = 0
			want, err := ref.ListSessions(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			gf, gu, err := ad.Counts(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			wf, wu, _ := ref.Counts(ctx, q)
			if gp.Total != want.Total || gf != wf || gu != wu {
				t.Errorf("counts %d/%d/%d, want %d/%d/%d", gp.Total, gf, gu, want.Total, wf, wu)
			}
			if len(got) != len(want.Sessions) {
				t.Fatalf("%d sessions %v, want %d %v", len(got), keys(got), len(want.Sessions), keys(want.Sessions))
			}
			seen := map[string]bool{}
			for i := range got {
				k := got[i].Key().String()
				if seen[k] {
					t.Fatalf("%s listed twice", k)
				}
				seen[k] = true
				// Ties may fall either way; the sort values may not.
				if c := tui.Compare(&got[i], &want.Sessions[i], tui.Query{Sort: q.Sort, Desc: q.Desc, GroupByWorkItem: q.GroupByWorkItem}); c != 0 &&
					sortValueDiffers(&got[i], &want.Sessions[i], q) {
					t.Errorf("row %d: %s, want %s", i, k, want.Sessions[i].Key())
				}
			}
		})
	}
}

// sortValueDiffers reports whether two sessions differ in what a query
// orders by (as opposed to a tie broken differently).
func sortValueDiffers(a, b *tui.Session, q tui.Query) bool {
	probe := q
	probe.GroupByWorkItem = q.GroupByWorkItem
	x, y := *a, *b
	x.WorkItemID, x.FileName, x.StartedAt = "", "", nil
	y.WorkItemID, y.FileName, y.StartedAt = "", "", nil
	if q.GroupByWorkItem {
		x.WorkItemID, y.WorkItemID = a.WorkItemID, b.WorkItemID
	}
	return tui.Compare(&x, &y, probe) != 0
}

// sendAll delivers messages to the app and runs what they return.
func sendAll(t testing.TB, m *tui.App, msgs ...tea.Msg) {
	t.Helper()
	for _, msg := range msgs {
		_, cmd := m.Update(msg)
		runCmd(t, m, cmd)
	}
}

func runCmd(t testing.TB, m *tui.App, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for n := 0; len(queue) > 0; n++ {
		if n > 500 {
			t.Fatal("commands do not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, tea.QuitMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

func keyPress(s string) tea.KeyPressMsg {
	if s == "enter" {
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	}
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
}

// TestInboxOnRealStore draws the screens over the real store (through the
// adapter) and compares them to goldens: inbox, session and tool call, in
// both views, at 80×24 and 120×40.
func TestInboxOnRealStore(t *testing.T) {
	st := demoStore(t)
	keysOf := func(km tui.KeyMap, screen string) []string {
		switch screen {
		case "session":
			return []string{km.SortCost.Keys()[0], "enter"}
		case "toolcall":
			return []string{km.SortCost.Keys()[0], "enter", "enter", "enter"}
		}
		return nil
	}
	for _, screen := range []string{"inbox", "session", "toolcall"} {
		for _, operator := range []bool{false, true} {
			for _, size := range [][2]int{{80, 24}, {120, 40}} {
				view := map[bool]string{false: "developer", true: "operator"}[operator]
				t.Run(fmt.Sprintf("%s/%s/%dx%d", screen, view, size[0], size[1]), func(t *testing.T) {
					o := tui.Options{Store: newInboxStore(st), Theme: "dark", Title: "sift demo", NoAnimation: true,
						Now: func() time.Time { return demoNow }, Reviewer: "tester"}
					if operator {
						o.Mode = tui.Operator
					}
					m, err := tui.NewApp(o)
					if err != nil {
						t.Fatal(err)
					}
					runCmd(t, m, m.Init())
					sendAll(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
					for _, k := range keysOf(tui.DefaultKeyMap(), screen) {
						sendAll(t, m, keyPress(k))
					}
					golden.RequireEqual(t, ansi.Strip(m.View().Content))
				})
			}
		}
	}
}

// benchStoreSessions is the size of the store the first-page benchmark
// opens.
const benchStoreSessions = 100_000

// benchStore returns a store of 100,000 sessions imported from real
// fixture streams (hard links, so the corpus costs no disk), built once in
// the temporary directory and reused.
func benchStore(b *testing.B) *store.Store {
	b.Helper()
	dir := filepath.Join(os.TempDir(), "sift-inbox-bench-100k-v1")
	db := filepath.Join(dir, "sift.db")
	if st, err := store.Open(db); err == nil {
		if n, _ := st.CountSessions(context.Background(), store.Query{}); n >= benchStoreSessions {
			return st
		}
		st.Close()
	}
	os.RemoveAll(dir)
	srcs, err := filepath.Glob(filepath.Join("demo", "streams", "*", "*.jsonl"))
	if err != nil || len(srcs) == 0 {
		b.Fatalf("no sample streams: %v", err)
	}
	logs := filepath.Join(dir, "logs")
	for i := range benchStoreSessions {
		wi := filepath.Join(logs, "WI-"+strconv.Itoa(i/20))
		if i%20 == 0 {
			if err := os.MkdirAll(wi, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		src, _ := filepath.Abs(srcs[i%len(srcs)])
		if err := os.Link(src, filepath.Join(wi, fmt.Sprintf("work-%d-%06x.jsonl", 1+i%3, i))); err != nil {
			b.Fatal(err)
		}
	}
	st, err := store.Open(db)
	if err != nil {
		b.Fatal(err)
	}
	res, err := st.Import(context.Background(), []string{logs}, store.ImportOptions{}, nil)
	if err != nil || len(res.Failed) > 0 {
		b.Fatalf("import: %v %v", err, res.Failed)
	}
	return st
}

// BenchmarkInboxFirstPage measures the inbox from start to its first
// drawn page on a 100,000-session store: a new app and adapter (no warm
// caches), the first page query, and View. The title's flagged and
// undecided counts are asked for after that frame; the "counts"
// sub-benchmark measures them.
func BenchmarkInboxFirstPage(b *testing.B) {
	st := benchStore(b)
	defer st.Close()
	var counts tea.Cmd
	b.Run("first-page", func(b *testing.B) {
		for range b.N {
			m, err := tui.NewApp(tui.Options{Store: newInboxStore(st), Theme: "dark", NoAnimation: true})
			if err != nil {
				b.Fatal(err)
			}
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			counts = firstPage(b, m, m.Init())
			if v := ansi.Strip(m.View().Content); !strings.Contains(v, "100000 sessions · … flagged") {
				b.Fatalf("first frame has no page:\n%s", v)
			}
		}
	})
	if counts == nil {
		b.Fatal("the first page asked for no counts")
	}
	b.Run("counts", func(b *testing.B) {
		for range b.N {
			if _, _, err := newInboxStore(st).Counts(context.Background(), tui.Query{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// firstPage runs the app's start-up commands until the first page is
// delivered, and returns the command that page asked for (the counts).
func firstPage(b *testing.B, m *tui.App, cmd tea.Cmd) tea.Cmd {
	b.Helper()
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case nil:
		default:
			if _, next := m.Update(msg); next != nil && fmt.Sprintf("%T", msg) == "tui.pageLoadedMsg" {
				return next
			}
		}
	}
	b.Fatal("no page was loaded")
	return nil
}

// TestBackgroundImportReportsProgress imports a logs folder the way
// `sift` does at start and checks the messages the app gets.
func TestBackgroundImportReportsProgress(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "sift.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ad := newInboxStore(st)
	var msgs []tea.Msg
	importInBackground(context.Background(), st, ad, []string{filepath.Join("demo", "streams")}, store.ImportOptions{}, func(m tea.Msg) {
		msgs = append(msgs, m)
	})
	if len(msgs) < 2 {
		t.Fatalf("%d messages, want progress and a last one", len(msgs))
	}
	last, ok := msgs[len(msgs)-1].(tui.ImportProgressMsg)
	if !ok || !last.Done || last.Err != nil || last.Sessions != 14 {
		t.Fatalf("last message %+v", msgs[len(msgs)-1])
	}
	p, err := ad.ListSessions(context.Background(), tui.Query{Sort: tui.SortTriage, Limit: 5})
	if err != nil || p.Total != 14 || len(p.Sessions) != 5 {
		t.Fatalf("after the import: %d sessions, page %d, %v", p.Total, len(p.Sessions), err)
	}
}

// BenchmarkInboxScroll measures a page down on the 100,000-session store,
// from the key to the redrawn frame: only the rows coming into view are
// read.
func BenchmarkInboxScroll(b *testing.B) {
	st := benchStore(b)
	defer st.Close()
	m, err := tui.NewApp(tui.Options{Store: newInboxStore(st), Theme: "dark", NoAnimation: true})
	if err != nil {
		b.Fatal(err)
	}
	sendAll(b, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	runCmd(b, m, m.Init())
	pgdn := tea.KeyPressMsg{Code: tea.KeyPgDown}
	b.ResetTimer()
	for range b.N {
		sendAll(b, m, pgdn)
		_ = m.View()
	}
}

// BenchmarkInboxFilter measures the inbox's `/` filter on the
// 100,000-session store: from an inbox showing its first page (a new app
// and adapter, no warm caches), the filter pasted in one go, to the first
// drawn page of its matches. "b" is a one-letter filter that matches
// about half the sessions; "bas" a three-letter one matching fewer.
func BenchmarkInboxFilter(b *testing.B) {
	st := benchStore(b)
	defer st.Close()
	slash := keyPress(tui.DefaultKeyMap().Filter.Keys()[0])
	for _, f := range []string{"b", "bas"} {
		b.Run(fmt.Sprintf("%d-letter", len(f)), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				m, err := tui.NewApp(tui.Options{Store: newInboxStore(st), Theme: "dark", NoAnimation: true})
				if err != nil {
					b.Fatal(err)
				}
				m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
				firstPage(b, m, m.Init())
				sendAll(b, m, slash)
				b.StartTimer()
				_, cmd := m.Update(tea.PasteMsg{Content: f})
				firstPage(b, m, cmd)
				if v := ansi.Strip(m.View().Content); !strings.Contains(v, "sessions") {
					b.Fatalf("no page after the filter:\n%s", v)
				}
			}
		})
	}
}
