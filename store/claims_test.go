package store

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store/pgtest"
)

// claimFixture is a store of three sessions and a clock the test moves.
type claimFixture struct {
	t   *testing.T
	s   *Store
	now time.Time
}

func newClaimFixture(t *testing.T) *claimFixture {
	f := &claimFixture{t: t, s: newTestStore(t), now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	f.s.now = func() time.Time { return f.now }
	writeFakes(t, f.s, []fake{{wi: "wi", file: "a.jsonl"}, {wi: "wi", file: "b.jsonl"}, {wi: "wj", file: "c.jsonl"}})
	return f
}

func sk(file string) review.SessionKey {
	wi := "wi"
	if file == "c.jsonl" {
		wi = "wj"
	}
	return review.SessionKey{WorkItemID: wi, FileName: file}
}

// claim claims a session for a reviewer, failing the test on an error.
func (f *claimFixture) claim(file, reviewer string) {
	f.t.Helper()
	if _, err := f.s.Claim(context.Background(), sk(file), reviewer, 0); err != nil {
		f.t.Fatal(err)
	}
}

// decide records decisions, failing the test on an error.
func (f *claimFixture) decide(ds ...review.Decision) {
	f.t.Helper()
	for _, d := range ds {
		if err := f.s.Decide(context.Background(), d); err != nil {
			f.t.Fatal(err)
		}
	}
}

// claimOf is the claim ListSessions shows on a session: "ana", or "" for
// none.
func (f *claimFixture) claimOf(file string) string {
	f.t.Helper()
	p, err := f.s.ListSessions(context.Background(), review.Query{})
	if err != nil {
		f.t.Fatal(err)
	}
	for _, s := range p.Sessions {
		if s.FileName == file && s.Claim != nil {
			return s.Claim.Reviewer
		}
	}
	return ""
}

// search lists the file names a search selects, as reviewer.
func (f *claimFixture) search(q, reviewer string) []string {
	f.t.Helper()
	p, err := f.s.ListSessions(context.Background(), review.Query{Search: q, Reviewer: reviewer})
	if err != nil {
		f.t.Fatalf("search %q: %v", q, err)
	}
	out := names(p.Sessions)
	slices.Sort(out)
	return out
}

// TestClaimIsShownRefusedAndReleased: a claim shows on the session's row
// and when it is opened, with who and where; another reviewer's claim is
// refused naming the holder; the holder's release ends it; releasing
// what is not claimed, or another's claim, says so.
func TestClaimIsShownRefusedAndReleased(t *testing.T) {
	t.Parallel()
	f := newClaimFixture(t)
	ctx := context.Background()
	c, err := f.s.Claim(ctx, sk("a.jsonl"), "ana", 0)
	if err != nil {
		t.Fatal(err)
	}
	if c.Reviewer != "ana" || !c.ClaimedAt.Equal(f.now) || !c.ExpiresAt.Equal(f.now.Add(review.DefaultClaimTTL)) {
		t.Fatalf("claim = %+v", c)
	}
	if got := f.claimOf("a.jsonl"); got != "ana" {
		t.Fatalf("row of a shows claim by %q, want ana", got)
	}
	if got := f.claimOf("b.jsonl"); got != "" {
		t.Fatalf("row of b shows claim by %q, want none", got)
	}
	sess, err := f.s.GetSession(ctx, sk("a.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if sess.Claim == nil || sess.Claim.Reviewer != "ana" || sess.Claim.Host != c.Host {
		t.Fatalf("opened session's claim = %+v", sess.Claim)
	}

	_, err = f.s.Claim(ctx, sk("a.jsonl"), "bo", 0)
	var ce *review.ClaimedError
	if !errors.As(err, &ce) || !errors.Is(err, review.ErrClaimed) || ce.Claim.Reviewer != "ana" {
		t.Fatalf("bo's claim on ana's session: %v, want a ClaimedError naming ana", err)
	}
	if !strings.Contains(err.Error(), "claimed by ana") {
		t.Fatalf("refusal %q does not say who holds it", err)
	}
	if err := f.s.Release(ctx, sk("a.jsonl"), "bo"); !errors.Is(err, review.ErrClaimed) {
		t.Fatalf("bo's release of ana's claim: %v, want ErrClaimed", err)
	}
	if got := f.claimOf("a.jsonl"); got != "ana" {
		t.Fatalf("after the refusals a is claimed by %q, want ana", got)
	}

	// Ana claiming again renews her claim.
	f.now = f.now.Add(10 * time.Minute)
	c2, err := f.s.Claim(ctx, sk("a.jsonl"), "ana", time.Hour)
	if err != nil || !c2.ExpiresAt.Equal(f.now.Add(time.Hour)) {
		t.Fatalf("renewed claim = %+v, %v", c2, err)
	}
	if err := f.s.Release(ctx, sk("a.jsonl"), "ana"); err != nil {
		t.Fatal(err)
	}
	if got := f.claimOf("a.jsonl"); got != "" {
		t.Fatalf("after the release a is claimed by %q", got)
	}
	if err := f.s.Release(ctx, sk("a.jsonl"), "ana"); !errors.Is(err, review.ErrNotClaimed) {
		t.Fatalf("second release: %v, want ErrNotClaimed", err)
	}
	if _, err := f.s.Claim(ctx, review.SessionKey{WorkItemID: "wi", FileName: "nope.jsonl"}, "ana", 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("claim of a missing session: %v, want ErrNotFound", err)
	}
	if _, err := f.s.Claim(ctx, sk("b.jsonl"), " ", 0); err == nil {
		t.Fatal("a claim without a reviewer was taken")
	}
}

// TestClaimExpires: past its time a claim is shown nowhere, counted by no
// filter, and another reviewer takes the session.
func TestClaimExpires(t *testing.T) {
	t.Parallel()
	f := newClaimFixture(t)
	ctx := context.Background()
	if _, err := f.s.Claim(ctx, sk("a.jsonl"), "ana", 30*time.Minute); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(29 * time.Minute)
	if got := f.claimOf("a.jsonl"); got != "ana" {
		t.Fatalf("a minute before expiry a is claimed by %q, want ana", got)
	}
	if got := f.search("unclaimed", ""); !slices.Equal(got, []string{"b.jsonl", "c.jsonl"}) {
		t.Fatalf("unclaimed before expiry = %v", got)
	}
	f.now = f.now.Add(time.Minute)
	if got := f.claimOf("a.jsonl"); got != "" {
		t.Fatalf("at expiry a is claimed by %q, want nobody", got)
	}
	if c, err := f.s.ClaimOf(ctx, sk("a.jsonl")); err != nil || c != nil {
		t.Fatalf("ClaimOf an expired claim = %+v, %v", c, err)
	}
	if got := f.search("unclaimed", ""); len(got) != 3 {
		t.Fatalf("unclaimed after expiry = %v, want all three", got)
	}
	if got := f.search("mine", "ana"); len(got) != 0 {
		t.Fatalf("ana's mine after expiry = %v, want none", got)
	}
	if _, err := f.s.Claim(ctx, sk("a.jsonl"), "bo", 0); err != nil {
		t.Fatalf("bo cannot take an expired claim: %v", err)
	}
	if err := f.s.Release(ctx, sk("a.jsonl"), "ana"); !errors.Is(err, review.ErrClaimed) {
		t.Fatalf("ana releasing bo's claim: %v, want ErrClaimed", err)
	}
}

// TestDecisionReleasesClaim: the claimer's decision on the session, of
// any kind, ends the claim; a decision on a turn, or by another reviewer,
// leaves it.
func TestDecisionReleasesClaim(t *testing.T) {
	t.Parallel()
	for _, kind := range review.DecisionKinds() {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			f := newClaimFixture(t)
			f.claim("a.jsonl", "ana")
			for _, d := range []review.Decision{
				{Session: sk("a.jsonl"), Kind: kind, Reviewer: "bo"},
				{Session: sk("a.jsonl"), Kind: kind, Reviewer: "ana", TurnID: "t1"},
			} {
				f.decide(d)
				if got := f.claimOf("a.jsonl"); got != "ana" {
					t.Fatalf("after %s by %s on %q the claim is %q's, want ana's", d.Kind, d.Reviewer, d.TurnID, got)
				}
			}
			f.decide(review.Decision{Session: sk("a.jsonl"), Kind: kind, Reviewer: "ana"})
			if got := f.claimOf("a.jsonl"); got != "" {
				t.Fatalf("after ana's %s the session is claimed by %q", kind, got)
			}
		})
	}
}

// TestTeamFilters: mine is what I claim or hold a current decision on,
// by:NAME the same for NAME, unclaimed what no live claim holds; each
// inverts with a leading -, and combines with the other filters.
func TestTeamFilters(t *testing.T) {
	t.Parallel()
	f := newClaimFixture(t)
	ctx := context.Background()
	f.claim("a.jsonl", "ana")
	// Bo decided c's turn; ana decided b, then bo decided b over it.
	f.decide(
		review.Decision{Session: sk("c.jsonl"), Kind: review.NeedsFollowup, Reviewer: "bo", TurnID: "t1"},
		review.Decision{Session: sk("b.jsonl"), Kind: review.Reviewed, Reviewer: "ana"},
		review.Decision{Session: sk("b.jsonl"), Kind: review.Ignored, Reviewer: "Bo"},
	)
	for _, tc := range []struct {
		q, me string
		want  []string
	}{
		{"mine", "ana", []string{"a.jsonl"}},
		{"mine", "bo", []string{"b.jsonl", "c.jsonl"}},
		{"-mine", "ana", []string{"b.jsonl", "c.jsonl"}},
		{"by:ana", "", []string{"a.jsonl"}},
		{"by:BO", "", []string{"b.jsonl", "c.jsonl"}},
		{"by:cy", "", nil},
		{"unclaimed", "", []string{"b.jsonl", "c.jsonl"}},
		{"-unclaimed", "", []string{"a.jsonl"}},
		{"unclaimed by:bo decision:ign", "", []string{"b.jsonl"}},
		{"mine unclaimed", "bo", []string{"b.jsonl", "c.jsonl"}},
	} {
		if got := f.search(tc.q, tc.me); !slices.Equal(got, tc.want) {
			t.Errorf("search %q as %q = %v, want %v", tc.q, tc.me, got, tc.want)
		}
		// The counts agree with the list.
		n, err := f.s.CountSessions(ctx, review.Query{Search: tc.q, Reviewer: tc.me})
		if err != nil || n != len(tc.want) {
			t.Errorf("count %q as %q = %d, %v; want %d", tc.q, tc.me, n, err, len(tc.want))
		}
	}
	if _, err := f.s.ListSessions(ctx, review.Query{Search: "mine"}); err == nil || !strings.Contains(err.Error(), "reviewer") {
		t.Fatalf("mine without a reviewer: %v, want an error asking for one", err)
	}
}

// unmigrate0016 takes a store back to before migration 0016: no claims.
func unmigrate0016(t *testing.T, s *Store) {
	t.Helper()
	unmigrate0017(t, s)
	for _, q := range []string{
		`DROP TABLE review_claims`,
		`DELETE FROM schema_migrations WHERE version >= 16`,
	} {
		if _, err := s.w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestCopyKeepsClaims: sift migrate carries a live claim over, and a
// second copy changes nothing.
func TestCopyKeepsClaims(t *testing.T) {
	t.Parallel()
	src, err := Open(filepath.Join(t.TempDir(), "sift.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	writeFakes(t, src, []fake{{wi: "wi", file: "a.jsonl", dur: 1}})
	ctx := context.Background()
	if _, err := src.Claim(ctx, sk("a.jsonl"), "ana", 0); err != nil {
		t.Fatal(err)
	}
	dst, err := Open(pgtest.New(t))
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	for range 2 {
		if _, err := src.CopyTo(ctx, dst); err != nil {
			t.Fatal(err)
		}
	}
	c, err := dst.ClaimOf(ctx, sk("a.jsonl"))
	if err != nil || c == nil || c.Reviewer != "ana" {
		t.Fatalf("claim after the copy: %+v, %v", c, err)
	}
}
