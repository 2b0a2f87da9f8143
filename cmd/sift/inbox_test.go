package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/retention"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
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

// The store is the inbox's store: tui declares the interface, and
// *store.Store satisfies it directly.
var _ tui.Store = (*store.Store)(nil)

// listAll pages through a query three rows at a time.
func listAll(t *testing.T, st tui.Store, q review.Query) ([]review.Session, review.Page) {
	t.Helper()
	var out []review.Session
	var first review.Page
	for off := 0; ; off += 3 {
		q.Offset, q.Limit, q.Count = off, 3, true
		p, err := st.ListSessions(context.Background(), q)
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

func keys(ss []review.Session) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Key().String())
	}
	return out
}

// TestStoreAnswersTheInbox pages the real store through the inbox's
// interface for every order, quick filter, the `/` filter and the grouping
// by work item, and checks each answer against the summaries it holds: the
// sessions a query selects (flagged in the store's sense: an open
// needs_followup on a tool call flags a session), each once, in its order,
// with its counts.
func TestStoreAnswersTheInbox(t *testing.T) {
	st := demoStore(t)
	ctx := context.Background()
	all, err := st.ListSessions(ctx, review.Query{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	ss := all.Sessions
	// A decision, so that the undecided filter and the triage order have
	// something to do.
	decided := ss[0].Key()
	if err := st.Decide(ctx, review.Decision{Session: decided, Kind: review.Reviewed, Reviewer: "t"}); err != nil {
		t.Fatal(err)
	}
	// A follow-up on a tool call of an unflagged session flags it in the
	// store's sense, not in its summary's: it must be listed once.
	followup := review.SessionKey{}
	for _, s := range ss {
		if s.Flagged || len(s.ToolCalls) == 0 || s.Key() == decided {
			continue
		}
		d := review.Decision{Session: s.Key(), TurnID: s.ToolCalls[0].TurnID, ToolCallID: s.ToolCalls[0].ID,
			Kind: review.NeedsFollowup, Note: "look", Reviewer: "t"}
		if err := st.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
		followup = s.Key()
		break
	}
	if followup.IsZero() {
		t.Fatal("no unflagged session with a tool call in the demo")
	}
	flagged := func(s *review.Session) bool { return s.Flagged || s.Key() == followup }
	undecided := func(s *review.Session) bool { return s.Key() != decided }
	queries := []review.Query{
		{Sort: review.SortTriage},
		{Sort: review.SortTriage, Flagged: true},
		{Sort: review.SortTriage, Undecided: true},
		{Sort: review.SortTriage, Agent: "gemini"},
		{Sort: review.SortTriage, Search: "bash"},
		{Sort: review.SortTriage, Search: "eng 4", Typing: true},
		{Sort: review.SortCost, GroupByWorkItem: true},
		{Sort: review.SortTriage, GroupByWorkItem: true, Search: "rework -agent:codex"},
	}
	for _, k := range review.SortKeys()[1:] {
		queries = append(queries, review.Query{Sort: k}, review.Query{Sort: k, Asc: true})
	}
	for _, q := range queries {
		t.Run(fmt.Sprintf("%+v", q), func(t *testing.T) {
			got, gp := listAll(t, st, q)
			var want []string
			nf, nu := 0, 0
			for i := range ss {
				s := &ss[i]
				switch {
				case q.Flagged && !flagged(s), q.Undecided && !undecided(s), q.Agent != "" && s.AgentKind != q.Agent,
					q.Search != "" && !searchMatches(t, q, s):
					continue
				}
				want = append(want, s.Key().String())
				if flagged(s) {
					nf++
				}
				if undecided(s) {
					nu++
				}
			}
			c, err := st.Counts(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if gp.Total != len(want) || c.Total != len(want) || c.Flagged != nf || c.Undecided != nu {
				t.Errorf("counts %d (page %d)/%d/%d, want %d/%d/%d", c.Total, gp.Total, c.Flagged, c.Undecided, len(want), nf, nu)
			}
			if !slices.Equal(slices.Sorted(slices.Values(keys(got))), slices.Sorted(slices.Values(want))) {
				t.Fatalf("sessions %v, want %v", keys(got), want)
			}
			// Each session is where Locate says it is.
			for i := range got {
				if at, err := st.Locate(ctx, q, got[i].Key()); err != nil || at != i {
					t.Errorf("Locate(%s) = %d, %v, want %d", got[i].Key(), at, err, i)
				}
			}
			// Grouped, each work item's sessions come together, the
			// groups in the order of their first (most urgent) session.
			done := map[string]bool{}
			for i := 1; i < len(got); i++ {
				a, b := &got[i-1], &got[i]
				if q.GroupByWorkItem && a.WorkItemID != b.WorkItemID {
					done[a.WorkItemID] = true
					if done[b.WorkItemID] {
						t.Errorf("row %d (%s) is apart from its work item's other rows", i, b.Key())
					}
					a = &got[slices.IndexFunc(got, func(s review.Session) bool { return s.WorkItemID == a.WorkItemID })]
				}
				if c := orderOf(a, q, flagged, undecided) - orderOf(b, q, flagged, undecided); c > 0 {
					t.Errorf("row %d (%s) comes before row %d (%s) in %s", i-1, got[i-1].Key(), i, got[i].Key(), q.Sort)
				}
			}
		})
	}
}

// searchMatches is the reference for the store's search on the demo's
// sessions: their indexed text as core/search builds it from the summary
// (the demo's prompts have none of the words searched for here), and
// the only field filter used.
func searchMatches(t *testing.T, q review.Query, s *review.Session) bool {
	t.Helper()
	sq, err := search.Parse(q.Search, search.Options{Typing: q.Typing})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sq.Filters {
		if f.Field != search.FieldAgent || !f.Not {
			t.Fatalf("filter %+v has no reference", f)
		}
		if strings.HasPrefix(s.AgentKind, f.Value) {
			return false
		}
	}
	return sq.MatchDoc(search.NewDoc(&s.Summary, nil))
}

// orderOf places a session in a query's order: sessions are listed by
// increasing orderOf (grouped, within a group, and the groups by their
// first sessions). It counts only what the order compares (triage rank,
// the sort figure), not how ties are broken.
func orderOf(s *review.Session, q review.Query, flagged, undecided func(*review.Session) bool) float64 {
	v := func(p *float64) float64 {
		if p == nil {
			return -1 // unknown is the smallest; the figures are ≥ 0
		}
		return *p
	}
	var x float64
	switch q.Sort {
	case review.SortTriage:
		// The stored rank's rule (review.TriageFacts), then cost.
		f := review.TriageFacts{Live: s.Live, LiveWait: s.LiveWait, Undecided: undecided(s), Flagged: flagged(s),
			Outcome: s.Outcome, AgentKind: s.AgentKind, CostKnown: s.EstimatedUSD != nil}
		x = -(float64(f.TriageRank())*1e9 + v(s.EstimatedUSD))
	default:
		f := map[review.SortKey]func() *float64{
			review.SortStarted: func() *float64 {
				if s.StartedAt == nil {
					return nil
				}
				t := float64(s.StartedAt.UnixMilli())
				return &t
			},
			review.SortDuration: func() *float64 { return i64(s.TotalDurationMs) },
			review.SortCost:     func() *float64 { return s.EstimatedUSD },
			review.SortTokens: func() *float64 {
				if s.InputTokens == nil && s.OutputTokens == nil {
					return nil
				}
				t := float64(deref(s.InputTokens) + deref(s.OutputTokens))
				return &t
			},
			review.SortStalls:    func() *float64 { n := float64(s.StallCount); return &n },
			review.SortErrors:    func() *float64 { n := float64(s.ErrorCount); return &n },
			review.SortApprovals: func() *float64 { n := float64(s.ApprovalCount); return &n },
			review.SortOutcome:   func() *float64 { n := float64(s.Outcome.Rank()); return &n },
		}[q.Sort]
		x = v(f())
		if !q.Asc {
			x = -x
		}
	}
	return x
}

func i64(p *int64) *float64 {
	if p == nil {
		return nil
	}
	f := float64(*p)
	return &f
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// sendAll delivers messages to the app and runs what they return.
func sendAll(t testing.TB, m *tui.App, msgs ...tea.Msg) {
	t.Helper()
	for _, msg := range msgs {
		_, cmd := m.Update(msg)
		runCmd(t, m, cmd)
	}
}

func runCmd(t testing.TB, m *tui.App, cmd tea.Cmd) { drain(t, m, cmd, nil, nil) }

// drain runs a command and delivers what it returns, and what those
// return, until none is left. hold, when set, keeps back the messages it
// reports: they are returned undelivered. delivered, when set, is called
// after each delivery.
func drain(t testing.TB, m *tui.App, cmd tea.Cmd, hold func(tea.Msg) bool, delivered func()) (held []tea.Msg) {
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
			if hold != nil && hold(msg) {
				held = append(held, msg)
				continue
			}
			_, next := m.Update(msg)
			queue = append(queue, next)
			if delivered != nil {
				delivered()
			}
		}
	}
	return held
}

func keyPress(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
}

// TestInboxOnRealStore draws the screens over the real store and compares
// them to goldens: inbox, session and tool call in both views, a turn
// decided (its session decided in the inbox) and the follow-ups, at
// 80×24, 120×36 and 200×50. Each test has a store of its own: decisions
// change it.
func TestInboxOnRealStore(t *testing.T) {
	keysOf := func(km tui.KeyMap, screen string) []string {
		k := func(b interface{ Keys() []string }) string { return b.Keys()[0] }
		switch screen {
		case "session":
			return []string{k(km.SortBy(review.SortCost)), k(km.Top), "enter"}
		case "toolcall":
			return []string{k(km.SortBy(review.SortCost)), k(km.Top), "enter", "enter", "enter"}
		case "turn-decided":
			// The costliest flagged session: the triage order's first
			// died before its first turn.
			return []string{k(km.Flagged), k(km.SortBy(review.SortCost)), k(km.Top), "enter", k(km.Decide), k(km.Reviewed), "enter", "esc"}
		case "followups":
			keys := []string{k(km.Flagged), k(km.SortBy(review.SortCost)), k(km.Top), "enter", "enter", "enter", k(km.Followup)}
			for _, r := range "why was find blocked?" {
				keys = append(keys, string(r))
			}
			return append(keys, "enter", k(km.Followups))
		}
		return nil
	}
	for _, screen := range []string{"inbox", "session", "toolcall", "turn-decided", "followups"} {
		for _, operator := range []bool{false, true} {
			if operator && (screen == "turn-decided" || screen == "followups") {
				continue
			}
			for _, size := range [][2]int{{80, 24}, {120, 36}, {200, 50}} {
				view := map[bool]string{false: "developer", true: "operator"}[operator]
				t.Run(fmt.Sprintf("%s/%s/%dx%d", screen, view, size[0], size[1]), func(t *testing.T) {
					st := demoStore(t)
					o := tui.Options{Store: st, Theme: "dark", Title: "sift demo", NoAnimation: true,
						Now: func() time.Time { return demoNow }, Reviewer: "tester", Resume: resumeOf}
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
	// v4: migration 0010; an older store would be migrated in place, and
	// another checkout's sift could then no longer open it.
	dir := filepath.Join(os.TempDir(), "sift-inbox-bench-100k-v4")
	db := filepath.Join(dir, "sift.db")
	if st, err := store.Open(db); err == nil {
		if n, _ := st.CountSessions(context.Background(), review.Query{}); n >= benchStoreSessions {
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
	res, err := ingest.Import(context.Background(), st, []string{logs}, ingest.Options{KeepEvents: retention.Policy{}.KeepsEvents}, nil)
	if err != nil || len(res.Failed) > 0 {
		b.Fatalf("import: %v %v", err, res.Failed)
	}
	return st
}

// BenchmarkInboxFirstPage measures the inbox from start to its first
// drawn page on a 100,000-session store: a new app, the first page query
// (one read of the triage index, and the count), and View. The title's flagged and
// undecided counts are asked for after that frame; the "counts"
// sub-benchmark measures them.
func BenchmarkInboxFirstPage(b *testing.B) {
	st := benchStore(b)
	defer st.Close()
	var counts tea.Cmd
	b.Run("first-page", func(b *testing.B) {
		for range b.N {
			m, err := tui.NewApp(tui.Options{Store: st, Theme: "dark", NoAnimation: true, Resume: resumeOf})
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
			if _, err := st.Counts(context.Background(), review.Query{}); err != nil {
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
	var msgs []app.ImportProgress
	res, err := app.ImportInBackground(context.Background(), st, []string{filepath.Join("demo", "streams")},
		ingest.Options{KeepEvents: retention.Policy{}.KeepsEvents}, func(p app.ImportProgress) { msgs = append(msgs, p) })
	if len(msgs) < 1 || err != nil || res.Sessions != 14 {
		t.Fatalf("%d progress reports, %d sessions, %v", len(msgs), res.Sessions, err)
	}
	if last := msgs[len(msgs)-1]; last.Files != last.Total || last.Total == 0 {
		t.Fatalf("last report %+v", last)
	}
	p, err := st.ListSessions(context.Background(), review.Query{Sort: review.SortTriage, Limit: 5, Count: true})
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
	m, err := tui.NewApp(tui.Options{Store: st, Theme: "dark", NoAnimation: true, Resume: resumeOf})
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

// BenchmarkInboxFilter measures the inbox's `/` search as it is typed, on
// the 100,000-session search corpus (searchCorpus): from an inbox showing
// the answer to what was typed so far (a new app, no warm caches), one
// key pressed, to the first drawn page of the new answer, in the triage
// order with the count. The cases type the first letter of a word, its
// third, its last, and the first letter of a second word, of words of
// every frequency in the corpus. It reports the median, p99 and maximum.
func BenchmarkInboxFilter(b *testing.B) {
	st, spec := searchBenchStore(b)
	defer st.Close()
	w := spec.Words()
	slash := keyPress(tui.DefaultKeyMap().Filter.Keys()[0])
	open := func(b *testing.B, typed string) *tui.App {
		m, err := tui.NewApp(tui.Options{Store: st, Theme: "dark", NoAnimation: true, Resume: resumeOf})
		if err != nil {
			b.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		firstPage(b, m, m.Init())
		sendAll(b, m, slash)
		if typed != "" {
			_, cmd := m.Update(tea.PasteMsg{Content: typed})
			firstPage(b, m, cmd)
		}
		return m
	}
	type typing struct{ typed, key string }
	word := func(typed string) []typing {
		var out []typing
		for _, n := range []int{0, 2, len(typed) - 1} {
			out = append(out, typing{typed[:n], typed[n : n+1]})
		}
		return out
	}
	cases := map[string][]typing{}
	for _, r := range []int{0, 10, 300, 5000} {
		cases["word"] = append(cases["word"], word(w[r])...)
		cases["second-word"] = append(cases["second-word"], typing{w[r] + " ", w[r+1][:1]}, typing{w[r] + " " + w[r+7][:2], w[r+7][2:3]})
	}
	cases["word"] = append(cases["word"], word("bash")...)
	for _, name := range []string{"word", "second-word"} {
		b.Run(name, func(b *testing.B) {
			var took []time.Duration
			for range b.N {
				for _, tc := range cases[name] {
					b.StopTimer()
					m := open(b, tc.typed)
					b.StartTimer()
					start := time.Now()
					_, cmd := m.Update(keyPress(tc.key))
					firstPage(b, m, cmd)
					if v := ansi.Strip(m.View().Content); !strings.Contains(v, "session") {
						b.Fatalf("no page after %q:\n%s", tc.typed+tc.key, v)
					}
					took = append(took, time.Since(start))
				}
			}
			reportLatency(b, took)
		})
	}
}
