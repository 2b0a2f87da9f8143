package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// cliSummaryJSON is what `sift summary --json FILE` prints for a file (a
// session without decisions), with the session's identity the store fills
// in.
func cliSummaryJSON(t *testing.T, path, workItem, phase string, iteration int) []byte {
	t.Helper()
	s, _, err := ingest.AnalyzeFile(path, summary.Options{})
	must(t, err)
	s.WorkItemID, s.Phase, s.Iteration = workItem, phase, &iteration
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	must(t, enc.Encode(review.Session{Summary: *s}))
	return b.Bytes()
}

// TestSummaryOnDemand asks for the summary of a file the store has never
// seen: it is analysed in memory, not stored, and the same JSON as `sift
// summary --json`. Once imported, it comes from the store.
func TestSummaryOnDemand(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	ctx := context.Background()
	const target = "/workitems/wi-1/agent-streams/work-1-a1b2c3.jsonl/summary"
	if _, err := e.store.GetSession(ctx, review.SessionKey{WorkItemID: "wi-1", FileName: "work-1-a1b2c3.jsonl"}); err == nil {
		t.Fatal("the store holds the summary before the first request")
	}
	r := e.get(target)
	sum := decode[summary.Summary](t, r, 200)
	if sum.WorkItemID != "wi-1" || sum.FileName != "work-1-a1b2c3.jsonl" || sum.AgentKind != "claude" || sum.LineCount != 5 {
		t.Fatalf("summary = %+v", sum)
	}
	want := cliSummaryJSON(t, filepath.Join(e.logs, "wi-1", "work-1-a1b2c3.jsonl"), "wi-1", "work", 1)
	if !bytes.Equal(r.body, want) {
		t.Errorf("API summary differs from sift summary --json:\n api %s\n cli %s", r.body, want)
	}
	if _, err := e.store.GetSession(ctx, review.SessionKey{WorkItemID: "wi-1", FileName: "work-1-a1b2c3.jsonl"}); err == nil {
		t.Fatal("a GET stored the on-demand summary")
	}
	// Imported, the file is served from the store, byte for byte the same.
	e.importAll()
	if again := e.get(target); !bytes.Equal(again.body, r.body) {
		t.Errorf("stored summary differs:\n%s\n%s", again.body, r.body)
	}
	// A grown file is summarized afresh, keeping the stored decision.
	must(t, e.store.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi-1", FileName: "work-1-a1b2c3.jsonl"},
		Kind: review.NeedsFollowup, Note: "look again", Reviewer: "ana"}))
	path := filepath.Join(e.logs, "wi-1", "work-1-a1b2c3.jsonl")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString(`{"type":"assistant","message":{"id":"m-late","role":"assistant","content":[{"type":"text","text":"late"}]}}` + "\n")
	must(t, err)
	must(t, f.Close())
	grown := decode[review.Session](t, e.get(target), 200)
	if grown.LineCount != 6 {
		t.Errorf("after growing: lineCount %d, want 6", grown.LineCount)
	}
	if grown.Decision == nil || grown.Decision.Note != "look again" {
		t.Errorf("after growing: decision %+v, want the stored one", grown.Decision)
	}
	e.wantError(e.get("/workitems/wi-1/agent-streams/none-1-000000.jsonl/summary"), 404, CodeNotFound)
}

func TestSummaryFromStore(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	e.importAll()
	r := e.get("/workitems/wi-1/agent-streams/audit-llm-security:llm-review-2-0a1b2c.jsonl/summary")
	sum := decode[summary.Summary](t, r, 200)
	if sum.AgentKind != "codex" || sum.Phase != "audit-llm-security:llm-review" || sum.Iteration == nil || *sum.Iteration != 2 {
		t.Fatalf("summary = %+v", sum)
	}
	want := cliSummaryJSON(t, filepath.Join(e.logs, "wi-1", "audit-llm-security:llm-review-2-0a1b2c.jsonl"),
		"wi-1", "audit-llm-security:llm-review", 2)
	if !bytes.Equal(r.body, want) {
		t.Errorf("API summary differs from sift summary --json:\n api %s\n cli %s", r.body, want)
	}
	// The listing now takes its metadata, and line counts, from the store.
	l := decode[streamList](t, e.get("/workitems/wi-1/agent-streams?includeLineCount=true"), 200)
	for _, f := range l.Files {
		if !f.Summarized || f.LineCount == nil {
			t.Errorf("%s: summarized %v, lineCount %v", f.FileName, f.Summarized, deref(f.LineCount))
		}
	}
}

func TestSessions(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	e.copyFixture("claude/evolve-2.1.5-mcp-browser-use.jsonl", "wi-2", "work-1-eeeeee.jsonl")
	e.importAll()
	l := decode[sessionList](t, e.get("/sessions"), 200)
	if len(l.Sessions) != 4 || l.Limit != DefaultLimit || l.NextOffset != nil {
		t.Fatalf("sessions: %d, limit %d, next %v", len(l.Sessions), l.Limit, l.NextOffset)
	}
	l = decode[sessionList](t, e.get("/sessions?workItem=wi-2"), 200)
	if len(l.Sessions) != 1 || l.Sessions[0].WorkItemID != "wi-2" {
		t.Fatalf("workItem filter: %+v", l.Sessions)
	}
	l = decode[sessionList](t, e.get("/sessions?agent=codex"), 200)
	if len(l.Sessions) != 1 || l.Sessions[0].AgentKind != "codex" {
		t.Fatalf("agent filter: %d sessions", len(l.Sessions))
	}
	l = decode[sessionList](t, e.get("/sessions?limit=2"), 200)
	if len(l.Sessions) != 2 || l.NextOffset == nil || *l.NextOffset != 2 {
		t.Fatalf("limit=2: %d sessions, next %v", len(l.Sessions), l.NextOffset)
	}
	// Each sort matches the store's own order for the same query.
	for _, k := range review.SortKeys() {
		for _, asc := range []string{"false", "true"} {
			got := decode[sessionList](t, e.get("/sessions?sort="+string(k)+"&asc="+asc), 200)
			want, err := e.store.ListSessions(context.Background(), review.Query{Sort: k, Asc: asc == "true", Limit: DefaultLimit})
			must(t, err)
			for i, w := range want.Sessions {
				if got.Sessions[i].FileName != w.FileName {
					t.Errorf("sort=%s asc=%s: row %d is %s, want %s", k, asc, i, got.Sessions[i].FileName, w.FileName)
				}
			}
		}
	}
	l = decode[sessionList](t, e.get("/sessions?flagged=true"), 200)
	for _, s := range l.Sessions {
		if !s.Flagged {
			t.Errorf("flagged filter let %s through", s.FileName)
		}
	}
	l = decode[sessionList](t, e.get("/sessions?since=1h"), 200)
	if len(l.Sessions) == 0 {
		t.Error("since=1h: no sessions, but the files were written just now")
	}
	if full := decode[sessionList](t, e.get("/sessions?full=true&limit=500"), 200); full.Sessions[0].Turns == nil {
		t.Error("full=true: no turns")
	}
	e.wantError(e.get("/sessions?sort=size"), 400, CodeInvalidParameter)
	e.wantError(e.get("/sessions?since=soon"), 400, CodeInvalidParameter)
	e.wantError(e.get("/sessions?flagged=yes"), 400, CodeInvalidParameter)
}

func TestDecisions(t *testing.T) {
	e := newEnv(t, Options{Loopback: true, Reviewer: "server-user"})
	e.importAll()
	post := func(body string) reply { return e.do(http.MethodPost, "/decisions", "application/json", body) }

	d := decode[decisionJSON](t, post(`{"session":"work-1","decision":"needs_followup","note":"check the write"}`), 201)
	if d.WorkItemID != "wi-1" || d.FileName != "work-1-a1b2c3.jsonl" || d.ReviewerID != "server-user" || d.CreatedAt.IsZero() {
		t.Fatalf("decision = %+v", d)
	}
	decode[decisionJSON](t, post(`{"workItemId":"wi-1","fileName":"work-1-a1b2c3.jsonl","turnId":"t1","decision":"reviewed","reviewerId":"ana"}`), 201)
	decode[decisionJSON](t, post(`{"session":"wi-1/work-1-a1b2c3.jsonl","decision":"reviewed","reviewerId":"ana"}`), 201)
	e.wantError(post(`{"session":"nope","decision":"reviewed"}`), 404, CodeNotFound)
	// A turn or tool call the session does not have is refused, and
	// nothing is written (the history below has three decisions).
	e.wantError(post(`{"session":"wi-1/work-1-a1b2c3.jsonl","turnId":"t999","decision":"reviewed"}`), 404, CodeNotFound)
	e.wantError(post(`{"session":"wi-1/work-1-a1b2c3.jsonl","toolCallId":"toolu_nope","decision":"reviewed"}`), 404, CodeNotFound)
	// rework-2 and ... share no prefix, but every file starts with a
	// letter another shares: "r" is unique, "" is not a reference.
	e.copyFixture("codex/vincent-turn-failed-model-400.jsonl", "wi-3", "work-1-999999.jsonl")
	e.importAll()
	e.wantError(post(`{"session":"work-1","decision":"reviewed"}`), 409, CodeAmbiguous)

	l := decode[decisionList](t, e.get("/sessions/wi-1/work-1-a1b2c3.jsonl/decisions"), 200)
	if len(l.History) != 3 || l.History[0].Decision != "needs_followup" || l.History[2].Decision != "reviewed" {
		t.Fatalf("history = %+v", l.History)
	}
	if len(l.Current) != 2 || l.Current[0].TurnID != "" || l.Current[0].Decision != "reviewed" || l.Current[1].TurnID != "t1" {
		t.Fatalf("current = %+v", l.Current)
	}
	l = decode[decisionList](t, e.get("/sessions/work-1-a1b2c3/decisions?limit=1&offset=1"), 200)
	if len(l.History) != 1 || l.History[0].TurnID != "t1" || l.NextOffset == nil || *l.NextOffset != 2 {
		t.Fatalf("page = %+v next %v", l.History, l.NextOffset)
	}
	// The session's decision shows in the list.
	s := decode[sessionList](t, e.get("/sessions?workItem=wi-1&undecided=true"), 200)
	for _, row := range s.Sessions {
		if row.FileName == "work-1-a1b2c3.jsonl" {
			t.Error("a decided session is listed as undecided")
		}
	}
	e.wantError(e.get("/sessions/nope/decisions"), 404, CodeNotFound)
	e.wantError(e.get("/sessions/work-1/decisions"), 409, CodeAmbiguous)
	e.wantError(e.get("/sessions/wi-1/none.jsonl/decisions"), 404, CodeNotFound)
}
