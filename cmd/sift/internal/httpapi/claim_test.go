package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestClaimRoute: POST /sessions/{wi}/{file}/claim claims for the body's
// reviewer (201 with the claim), refuses another's live claim with 409
// claimed naming the holder, releases one's own (204), and says when
// there is nothing to release; the session's JSON carries the claim; a
// cross-origin browser request may not claim.
func TestClaimRoute(t *testing.T) {
	e := newEnv(t, Options{Loopback: true, Reviewer: "server"})
	e.importAll()
	const path = "/sessions/wi-1/work-1-a1b2c3.jsonl/claim"
	post := func(body string, hdr ...string) reply {
		return e.do(http.MethodPost, path, "application/json", body, hdr...)
	}

	r := post(`{"reviewerId":"ana","minutes":45}`)
	var c struct {
		WorkItemID, FileName, ReviewerID string
		ClaimedAt, ExpiresAt             string
	}
	if r.status != 201 || json.Unmarshal(r.body, &c) != nil || c.ReviewerID != "ana" || c.FileName != "work-1-a1b2c3.jsonl" {
		t.Fatalf("claim: %d %s", r.status, r.body)
	}
	r = post(`{"reviewerId":"bo"}`)
	e.wantError(r, 409, CodeClaimed)
	if !strings.Contains(string(r.body), "claimed by ana") {
		t.Fatalf("refusal does not name the holder: %s", r.body)
	}
	if s := e.get("/sessions?limit=10"); !strings.Contains(string(s.body), `"claim":{"reviewerId":"ana"`) {
		t.Fatalf("the session list does not carry the claim: %s", s.body)
	}
	e.wantError(post(`{"release":true}`), 409, CodeClaimed) // the server's reviewer is not ana
	if r := post(`{"reviewerId":"ana","release":true}`); r.status != 204 {
		t.Fatalf("release: %d %s", r.status, r.body)
	}
	e.wantError(post(`{"reviewerId":"ana","release":true}`), 409, CodeNotClaimed)
	e.wantError(post(`{"minutes":-1}`), 400, CodeInvalidBody)
	e.wantError(e.do(http.MethodPost, "/sessions/wi-1/nope.jsonl/claim", "application/json", `{}`), 404, CodeNotFound)
	e.wantError(post(`{}`, "Sec-Fetch-Site", "cross-site"), 403, CodeForbidden)
	if r := post(`{}`); r.status != 201 || !strings.Contains(string(r.body), `"reviewerId":"server"`) {
		t.Fatalf("claim without a reviewer: %d %s", r.status, r.body)
	}
}
