package store

import (
	"context"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// TestUnreadableRowStaysInTheInbox: in a shared database, a session row
// whose summary does not decode (another program wrote it) neither stops
// the inbox's list nor disappears from it: it is listed under its own key,
// its outcome unknown and its evidence saying which column could not be
// read (on one line, no control characters) and that sift rebuild reads
// its file again; the session opens, and its follow-up is still listed.
// The old store failed the whole list with "decode summary".
func TestUnreadableRowStaysInTheInbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newTestStore(t)
	writeFakes(t, s, []fake{{wi: "wi", file: "a.jsonl", tokens: 400}, {wi: "wi", file: "b.jsonl", tokens: 800},
		{wi: "wi", file: "c.jsonl", tokens: 1200}})
	bad := review.SessionKey{WorkItemID: "wi", FileName: "b.jsonl"}
	if err := s.Decide(ctx, review.Decision{Session: bad, Kind: review.NeedsFollowup, Note: "look again"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `UPDATE agent_stream_summaries SET brief_json = ? WHERE work_item_id = ? AND file_name = ?`,
		"{\"inputTokens\":\"many\x1b]0;x\x07\"", bad.WorkItemID, bad.FileName); err != nil {
		t.Fatal(err)
	}
	check := func(where string, sum summary.Summary) {
		t.Helper()
		ev := sum.OutcomeEvidence.Sentence
		if sum.Outcome != summary.OutcomeUnknown || !strings.Contains(ev, "brief_json") || !strings.Contains(ev, "sift rebuild") ||
			strings.ContainsAny(ev, "\x1b\x07\n") {
			t.Errorf("%s: outcome %s, evidence %q", where, sum.Outcome, ev)
		}
	}
	for _, full := range []bool{false, true} {
		p, err := s.ListSessions(ctx, review.Query{Full: full})
		if err != nil {
			t.Fatalf("list (full %v): %v", full, err)
		}
		found := 0
		for _, sess := range p.Sessions {
			if sess.Key() == bad {
				check("list", sess.Summary)
				found++
			}
		}
		if len(p.Sessions) != 3 || found != 1 {
			t.Errorf("list (full %v): %d sessions, the unreadable one %d times", full, len(p.Sessions), found)
		}
	}
	sess, err := s.GetSession(ctx, bad)
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	check("get", sess.Summary)
	fs, err := s.Followups(ctx)
	if err != nil || len(fs) != 1 || fs[0].Decision.Session != bad {
		t.Fatalf("followups %+v, %v", fs, err)
	}
	check("followups", fs[0].Session.Summary)
}
