package main

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
	"github.com/agentsift/sift/store/pgtest"
	"github.com/agentsift/sift/tui"
)

// TestClaimCommand: sift claim claims a session for its reviewer, refuses
// one another reviewer holds in one line naming them, renews and
// releases one's own; sift search mine and unclaimed see it.
func TestClaimCommand(t *testing.T) {
	db, ref := decideEnv(t)
	out, errOut, code := siftCmd(t, "claim", "--db", db, ref, "--reviewer", "ana")
	if code != 0 || !strings.HasPrefix(out, "claimed "+ref+" by ana until ") {
		t.Fatalf("claim: %d %q %q", code, out, errOut)
	}
	out, errOut, code = siftCmd(t, "claim", "--db", db, ref, "--reviewer", "bo")
	if code == 0 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "is claimed by ana") {
		t.Fatalf("bo's claim on ana's session: %d %q %q", code, out, errOut)
	}
	for _, tc := range []struct{ q, who, want string }{
		{"mine", "ana", "1 match"},
		{"mine", "bo", "no match"},
		{"unclaimed", "bo", "no match"},
		{"by:ana", "bo", "1 match"},
	} {
		out, errOut, code := siftCmd(t, "search", "--db", db, "--reviewer", tc.who, "--json", tc.q)
		n := strings.Count(out, `"workItemId"`)
		if code != 0 || (tc.want == "no match") != (n == 0) {
			t.Errorf("search %s as %s: %d %q %q, want %s", tc.q, tc.who, code, out, errOut, tc.want)
		}
	}
	if out, errOut, code = siftCmd(t, "claim", "--db", db, "--release", ref, "--reviewer", "bo"); code == 0 || !strings.Contains(errOut, "claimed by ana") {
		t.Fatalf("bo's release of ana's claim: %d %q %q", code, out, errOut)
	}
	if out, errOut, code = siftCmd(t, "claim", "--db", db, "--release", ref, "--reviewer", "ana"); code != 0 || out != "released "+ref+" by ana\n" {
		t.Fatalf("release: %d %q %q", code, out, errOut)
	}
	if out, errOut, code = siftCmd(t, "claim", "--db", db, "--release", ref, "--reviewer", "ana"); code == 0 || errOut != "sift claim: "+ref+" is not claimed\n" {
		t.Fatalf("second release: %d %q %q", code, out, errOut)
	}
	if out, errOut, code = siftCmd(t, "claim", "--db", db, ref, "--minutes", "-3"); code == 0 || !strings.Contains(errOut, "--minutes") {
		t.Fatalf("negative minutes: %d %q %q", code, out, errOut)
	}
}

// inboxApp opens the inbox on a store at a fixed size and clock, as
// reviewer.
func inboxApp(t *testing.T, st tui.Store, reviewer string, w, h int) *tui.App {
	t.Helper()
	m, err := tui.NewApp(tui.Options{Store: st, Theme: "dark", Title: "sift demo", NoAnimation: true,
		Now: func() time.Time { return demoNow }, Reviewer: reviewer, Resume: resumeOf})
	if err != nil {
		t.Fatal(err)
	}
	runCmd(t, m, m.Init())
	sendAll(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// pressKey presses a binding's first key.
func pressKey(t *testing.T, m *tui.App, b interface{ Keys() []string }) {
	t.Helper()
	sendAll(t, m, keyPress(b.Keys()[0]))
}

// untilRE matches when a claim ends, which the store counts from the
// wall clock: the goldens hold a placeholder.
var untilRE = regexp.MustCompile(`until (\w{3} \d\d )?\d\d:\d\d`)

// claimView is the app's view as a golden holds it.
func claimView(m *tui.App) string {
	return untilRE.ReplaceAllString(ansi.Strip(m.View().Content), "until HH:MM")
}

// TestInboxClaims: c claims the selected session on the real store; the
// row and the session screen show it (goldens); a second reviewer's
// inbox shows it once it polls the store's change, and their c is
// refused naming the holder; c again releases it.
func TestInboxClaims(t *testing.T) {
	st := demoStore(t)
	km := tui.DefaultKeyMap()
	ana := inboxApp(t, st, "ana", 120, 36)
	bo := inboxApp(t, st, "bo", 120, 36)
	// Both on the costliest flagged session, one with a flagged turn (the
	// triage order's first is a run that died before its first turn).
	for _, app := range []*tui.App{ana, bo} {
		pressKey(t, app, km.Flagged)
		pressKey(t, app, km.SortBy(review.SortCost))
		pressKey(t, app, km.Top)
	}
	pressKey(t, ana, km.Claim)
	view := claimView(ana)
	if !strings.Contains(view, "@ana") {
		t.Fatalf("ana's inbox after c does not show her claim:\n%s", view)
	}
	t.Run("inbox", func(t *testing.T) { golden.RequireEqual(t, view) })

	// Bo's inbox shows the claim once it reloads (as it does when its
	// poll sees the store change).
	pressKey(t, bo, km.Refresh)
	if v := ansi.Strip(bo.View().Content); !strings.Contains(v, "@ana") || !strings.Contains(v, "claimed by ana") {
		t.Fatalf("bo's inbox does not show ana's claim (row and preview) after a reload:\n%s", v)
	}
	pressKey(t, bo, km.Claim)
	if v := ansi.Strip(bo.View().Content); !strings.Contains(v, "is claimed by ana") {
		t.Fatalf("bo's claim on ana's session is not refused naming her:\n%s", v)
	}

	pressKey(t, ana, km.Enter)
	t.Run("session", func(t *testing.T) { golden.RequireEqual(t, claimView(ana)) })
	pressKey(t, ana, km.Claim)
	if v := ansi.Strip(ana.View().Content); strings.Contains(v, "claimed by ana") || !strings.Contains(v, "released") {
		t.Fatalf("c again does not release ana's claim:\n%s", v)
	}
	p, err := st.ListSessions(context.Background(), review.Query{Search: "-unclaimed"})
	if err != nil || len(p.Sessions) != 0 {
		t.Fatalf("claimed sessions after the release: %v, %v", p.Sessions, err)
	}

	// Claimed again, then decided: the turn's pane and the header say
	// who decided and when, and the session's decision ended the claim.
	pressKey(t, ana, km.Claim)
	for _, b := range []interface{ Keys() []string }{km.Decide, km.Reviewed, km.Enter, km.DecideSession, km.Ignored, km.Enter} {
		pressKey(t, ana, b)
	}
	view = claimView(ana)
	if !strings.Contains(view, "review  ignored by ana, 08:00") || !strings.Contains(view, "reviewed by ana, 08:00") ||
		strings.Contains(view, "claimed by ana") {
		t.Fatalf("after ana's decisions the session screen does not say who decided, or still shows her claim:\n%s", view)
	}
	t.Run("decided", func(t *testing.T) { golden.RequireEqual(t, view) })
}

// TestInboxSaysWhatWasNotRecorded: with the store closed under the inbox
// (a lost database), a decision, an undo and a claim each say in the
// status line that they were NOT recorded, and none is recorded: the
// store opened again holds no decision and no claim.
func TestInboxSaysWhatWasNotRecorded(t *testing.T) {
	st := demoStore(t)
	km := tui.DefaultKeyMap()
	m := inboxApp(t, st, "ana", 120, 36)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		keys []interface{ Keys() []string }
		want string
	}{
		{"decide", []interface{ Keys() []string }{km.Decide, km.Reviewed}, "reviewed on "},
		{"undo", []interface{ Keys() []string }{km.Undo}, "undo on "},
		{"claim", []interface{ Keys() []string }{km.Claim}, "claim on "},
	} {
		for _, k := range tc.keys {
			pressKey(t, m, k)
		}
		if tc.name == "decide" {
			sendAll(t, m, keyPress("enter"))
		}
		v := ansi.Strip(m.View().Content)
		line := ""
		for l := range strings.SplitSeq(v, "\n") {
			if strings.Contains(l, "NOT recorded") {
				line = l
			}
		}
		if !strings.Contains(line, tc.want) || !strings.Contains(line, "database is closed") {
			t.Errorf("%s on a closed store: status %q, want %q … NOT recorded: database is closed\n%s", tc.name, line, tc.want, v)
		}
	}
	again, err := store.Open(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	p, err := again.ListSessions(context.Background(), review.Query{Search: "-unclaimed", Reviewer: "ana"})
	if err != nil || len(p.Sessions) != 0 {
		t.Fatalf("claims after the failures: %d, %v", len(p.Sessions), err)
	}
	if p, err = again.ListSessions(context.Background(), review.Query{Search: "by:ana"}); err != nil || len(p.Sessions) != 0 {
		t.Fatalf("decisions by ana after the failures: %d, %v", len(p.Sessions), err)
	}
}

// TestInboxOnLostPostgres: the inbox on PostgreSQL whose server stops
// under it says a decision and a claim were NOT recorded, in one line
// each, with the driver's reason and never the connection's password,
// and shows nothing as recorded: the session stays undecided and
// unclaimed on screen.
func TestInboxOnLostPostgres(t *testing.T) {
	c, err := pgtest.Start()
	if err != nil {
		t.Skipf("no PostgreSQL server could start (apt-get install postgresql): %v", err)
	}
	defer c.Stop()
	dsn, _, err := pgtest.CreateDB(c.DSN)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := seedDemo(context.Background(), st, t.TempDir(), demoNow); err != nil {
		t.Fatal(err)
	}
	km := tui.DefaultKeyMap()
	m := inboxApp(t, st, "ana", 120, 36)
	before := claimView(m)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"decide", []string{km.Decide.Keys()[0], km.Reviewed.Keys()[0], "enter"}},
		{"claim", []string{km.Claim.Keys()[0]}},
	} {
		for _, k := range tc.keys {
			sendAll(t, m, keyPress(k))
		}
		v := claimView(m)
		if strings.Count(v, "NOT recorded") != 1 || strings.Contains(v, c.Password) {
			t.Errorf("%s on a stopped server: want one NOT recorded line and no password:\n%s", tc.name, v)
		}
		// Apart from the status line, the inbox is as it was.
		if cut(v) != cut(before) {
			t.Errorf("%s on a stopped server changed the inbox:\n%s\nwas:\n%s", tc.name, v, before)
		}
	}
}

// cut is a view without its status and help lines.
func cut(v string) string {
	lines := strings.Split(v, "\n")
	return strings.Join(lines[:max(len(lines)-2, 0)], "\n")
}
