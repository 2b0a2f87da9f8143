package tui

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/themes"
)

// ctxStore is a MemStore that answers a cancelled query with its
// context's error, as the SQLite store does, and keeps the contexts it
// was asked with.
type ctxStore struct {
	*MemStore
	mu   sync.Mutex
	ctxs []context.Context
}

func (s *ctxStore) ListSessions(ctx context.Context, q review.Query) (review.Page, error) {
	s.mu.Lock()
	s.ctxs = append(s.ctxs, ctx)
	s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return review.Page{}, err
	}
	return s.MemStore.ListSessions(ctx, q)
}

// TestSearchKeepsRowsAndCancels types a search a key at a time without
// letting the queries answer: the rows stay those of the last answer,
// each keystroke cancels the query before it, and only the last answer
// is drawn.
func TestSearchKeepsRowsAndCancels(t *testing.T) {
	st := &ctxStore{MemStore: NewMemStore(fixtureSessions(t))}
	m := newTestApp(t, 120, 40, st)
	press(t, m, m.c.Keys.Filter)
	before := screenText(m)
	var cmds []tea.Cmd
	for _, r := range "gem" {
		_, cmd := m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		cmds = append(cmds, cmd)
		if got := screenText(m); !strings.Contains(got, "ENG-412 · rework-2") || strings.Count(got, "ENG-") < 12 {
			t.Fatalf("typing %q blanked the list:\n%s", r, got)
		}
	}
	for _, cmd := range cmds {
		run(t, m, cmd)
	}
	st.mu.Lock()
	ctxs := slices.Clone(st.ctxs)
	st.mu.Unlock()
	if n := len(ctxs); n < 4 {
		t.Fatalf("%d queries", n)
	}
	for i, ctx := range ctxs[len(ctxs)-3 : len(ctxs)-1] {
		if ctx.Err() == nil {
			t.Errorf("the query of keystroke %d was not cancelled by the next", i+1)
		}
	}
	if m.status != "" {
		t.Errorf("a cancelled query reported %q", m.status)
	}
	if m.inbox.total != 2 || before == screenText(m) {
		t.Fatalf("after the answers: %d sessions", m.inbox.total)
	}
	for _, s := range m.inbox.win {
		if s.AgentKind != "gemini" {
			t.Errorf("gem kept %s", s.Key())
		}
	}
	if got := screenText(m); !strings.Contains(got, "2 sessions match") {
		t.Errorf("the count is not shown:\n%s", got)
	}
	// The agent's name is marked in the rows.
	if got := m.View().Content; !strings.Contains(got, m.c.Styles.Table.Match.Render("gemini")) &&
		!strings.Contains(got, m.c.Styles.Table.SelectedMatch.Render("gemini")) {
		t.Error("the match is not marked in the rows")
	}
}

// TestSearchProblemKeepsRows: a search the store cannot read says why
// beside the search and keeps the rows.
func TestSearchProblemKeepsRows(t *testing.T) {
	m := newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	press(t, m, m.c.Keys.Filter)
	typeText(t, m, "cost>x ")
	if !strings.Contains(screenText(m), "cost wants an amount") || m.inbox.total != 12 {
		t.Errorf("a bad filter: %d sessions\n%s", m.inbox.total, screenText(m))
	}
}

// TestMalformedSearchSaysWhere: a search with nothing to search for in
// it ((((( ) names the part and its column beside the search, rather than
// reading as no search and counting every session; enter leaves the
// problem in view; a - being typed waits for its word (issue 29, item 8).
func TestMalformedSearchSaysWhere(t *testing.T) {
	m := newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	press(t, m, m.c.Keys.Filter)
	typeText(t, m, "gemini -")
	if got := screenText(m); !strings.Contains(got, "2 sessions match") {
		t.Fatalf("a - being typed is an error:\n%s", got)
	}
	typeText(t, m, " ((((")
	got := screenText(m)
	if !strings.Contains(got, `"-" at column 8: a - alone`) || strings.Contains(got, "sessions match") {
		t.Fatalf("gemini - ((((: no problem named, or a count shown:\n%s", got)
	}
	send(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if !m.inbox.filtering || !strings.Contains(screenText(m), "at column 8") {
		t.Errorf("enter hid the problem:\n%s", screenText(m))
	}
	send(t, m, tea.KeyPressMsg{Code: tea.KeyEscape})
	typeText(t, m, "/zebra")
	send(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if got := screenText(m); m.inbox.total != 0 || !strings.Contains(got, "no matches · esc clears") {
		t.Errorf("an empty result:\n%s", got)
	}
}

// callWord finds a word of a tool input that only one session's calls
// have, at two places of it at least, and returns it with the session.
func callWord(t *testing.T, ss []review.Session) (string, *review.Session) {
	t.Helper()
	in := map[string]map[string]int{} // word → session → calls
	for i := range ss {
		for _, c := range ss[i].ToolCalls {
			for _, w := range search.Words(c.InputSummary) {
				if len(w) < 6 {
					continue
				}
				if in[w] == nil {
					in[w] = map[string]int{}
				}
				in[w][ss[i].Key().String()]++
			}
		}
	}
	var words []string
	for w, by := range in {
		if len(by) == 1 {
			for _, n := range by {
				if n >= 2 {
					words = append(words, w)
				}
			}
		}
	}
	slices.Sort(words)
	if len(words) == 0 {
		t.Fatal("no word of two calls of one session")
	}
	for k := range in[words[0]] {
		for i := range ss {
			if ss[i].Key().String() == k {
				return words[0], &ss[i]
			}
		}
	}
	return "", nil
}

// TestEnterOpensAtTheFirstMatch searches for a word of a tool input:
// enter opens the session at the call, n and N follow the matches, and
// without a search n and N follow the flagged turns again.
func TestEnterOpensAtTheFirstMatch(t *testing.T) {
	ss := fixtureSessions(t)
	word, want := callWord(t, ss)
	var calls []summary.ToolCall
	for _, c := range want.ToolCalls {
		if slices.Contains(search.Words(c.InputSummary), word) {
			calls = append(calls, c)
		}
	}
	m := newTestApp(t, 120, 40, NewMemStore(ss))
	k := m.c.Keys
	press(t, m, k.Filter)
	typeText(t, m, word+" ")
	press(t, m, k.Enter)
	if m.inbox.total != 1 || m.inbox.selected().Key() != want.Key() {
		t.Fatalf("search %q: %d sessions", word, m.inbox.total)
	}
	press(t, m, k.Enter)
	sv := m.session
	if m.screen != screenSession || sv.focus != focusPane || sv.calls()[sv.call].ID != calls[0].ID {
		t.Fatalf("opened at turn %v, focus %d, not at call %s", sv.turn(), sv.focus, calls[0].ID)
	}
	if !strings.Contains(screenText(m), "match 1 of") || !strings.Contains(screenText(m), "n next match") {
		t.Errorf("the session does not say it follows matches:\n%s", screenText(m))
	}
	press(t, m, k.NextMatch)
	if got := sv.calls()[sv.call].ID; got == calls[0].ID || got != calls[1].ID {
		t.Errorf("n went to %s, want %s", got, calls[1].ID)
	}
	press(t, m, k.PrevMatch)
	if got := sv.calls()[sv.call].ID; got != calls[0].ID {
		t.Errorf("N went to %s, want %s", got, calls[0].ID)
	}
	// Back in the inbox without the search, n follows flagged turns.
	press(t, m, k.Back, k.Back, k.Back)
	if m.screen != screenInbox || m.inbox.q.Search != "" {
		t.Fatalf("esc: screen %d, search %q", m.screen, m.inbox.q.Search)
	}
	press(t, m, k.Enter)
	if m.session.hasMatches() || !strings.Contains(m.help.ShortHelpView(m.session.ShortHelp()), "next flagged") {
		t.Error("a session opened without a search follows matches")
	}
}

func TestHighlight(t *testing.T) {
	t.Parallel()
	st := NewStyles(mustPalette(t))
	q := parsedSearch(review.Query{Search: "npm te", Typing: true})
	got := highlight("ran npm test twice", q, st.Table.Cell, st.Table.Match)
	want := st.Table.Cell.Render("ran ") + st.Table.Match.Render("npm") + st.Table.Cell.Render(" ") +
		st.Table.Match.Render("test") + st.Table.Cell.Render(" twice")
	if got != want {
		t.Errorf("highlight\n got %q\nwant %q", got, want)
	}
	if highlight("plain", nil, st.Table.Cell, st.Table.Match) != st.Table.Cell.Render("plain") {
		t.Error("no search marks something")
	}
}

func mustPalette(t *testing.T) themes.Palette {
	t.Helper()
	p, err := themes.ByName("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
