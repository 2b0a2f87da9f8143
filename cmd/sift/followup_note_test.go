package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentsift/sift/cmd/sift/internal/httpapi"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// TestFollowupNeedsANoteEverywhere: a needs_followup decision without a
// note is refused by sift decide and the API with the inbox's words, and
// nothing is recorded. (The store itself keeps what an import of old
// decisions brings.)
func TestFollowupNeedsANoteEverywhere(t *testing.T) {
	db := importedDB(t, map[string]string{"wi-1/work-1-a1b2c3.jsonl": streamWithID(t,
		"claude/e2e-claude-code-2.1.332-scripted.jsonl", "eff3be49-5d5c-492c-baea-ad4d629adf93", "eff3be49-5d5c-492c-baea-ad4d629adf93")})
	words := review.ErrFollowupNeedsNote.Error()
	_, errOut, code := siftCmd(t, "decide", "--db", db, "wi-1/work-1-a1b2c3.jsonl", "--decision", "needs_followup", "--note", "  ")
	if code == 0 || !strings.Contains(errOut, words) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("sift decide without a note: exit %d, %q", code, errOut)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	k := review.SessionKey{WorkItemID: "wi-1", FileName: "work-1-a1b2c3.jsonl"}
	api, err := httpapi.New(httpapi.Options{Store: st, LogsDir: t.TempDir(), Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	req := httptest.NewRequest("POST", "http://127.0.0.1/decisions",
		strings.NewReader(`{"session":"wi-1/work-1-a1b2c3.jsonl","decision":"needs_followup","note":""}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	api.ServeHTTP(rec, req)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), words) {
		t.Errorf("POST /decisions without a note: %d %s", rec.Code, rec.Body)
	}
	if ds, err := st.Decisions(context.Background(), k); err != nil || len(ds) != 0 {
		t.Errorf("something was recorded: %+v %v", ds, err)
	}
	// With a note, it is recorded.
	if _, errOut, code := siftCmd(t, "decide", "--db", db, "wi-1/work-1-a1b2c3.jsonl", "--decision", "needs_followup", "--note", "rerun it"); code != 0 {
		t.Errorf("with a note: %d %q", code, errOut)
	}
}
