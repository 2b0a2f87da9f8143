package review

import (
	"encoding/json"
	"testing"
	"time"
)

func TestDecisionKinds(t *testing.T) {
	t.Parallel()
	for _, k := range DecisionKinds() {
		if !k.Valid() {
			t.Errorf("%s is not valid", k)
		}
		if k.IsOpen() != (k == NeedsFollowup) {
			t.Errorf("%s: IsOpen %v", k, k.IsOpen())
		}
	}
	for _, k := range []DecisionKind{"", "approved", "Reviewed"} {
		if k.Valid() {
			t.Errorf("%q is valid", k)
		}
	}
}

// TestDecisionJSON pins a decision's JSON inside a session: the form the
// summary JSON has always carried, without the session and the id.
func TestDecisionJSON(t *testing.T) {
	t.Parallel()
	d := Decision{ID: 7, Session: SessionKey{"wi", "a.jsonl"}, Kind: NeedsFollowup, Note: "look",
		Reviewer: "bo", CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), TurnID: "t2"}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"decision":"needs_followup","note":"look","reviewerId":"bo","createdAt":"2026-01-02T03:04:05Z","turnId":"t2"}`
	if string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	if !(&Decision{}).OnSession() || d.OnSession() {
		t.Error("OnSession")
	}
}
