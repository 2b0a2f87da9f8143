package review

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/summary"
)

// TestSessionJSON checks that a session's JSON is its summary's with the
// decisions after it, and that WriteJSON streams the same bytes as an
// Encoder writes for the whole session, brief or full.
func TestSessionJSON(t *testing.T) {
	t.Parallel()
	two, msg := 2, `"toolCalls":[],"stalls":[],"turns":[] <b>`
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sum := summary.Summary{WorkItemID: "wi", FileName: "a.jsonl", Iteration: &two, FinalAssistantMessage: &msg,
		ToolCalls: []summary.ToolCall{{ID: "c1", Name: "Bash"}, {ID: "c2", Name: "Read"}},
		Stalls:    []summary.Stall{{GapMs: 31000}}, Turns: []summary.Turn{{TurnID: "t1"}}}
	decided := Decision{Kind: Reviewed, Reviewer: "ana", CreatedAt: at}
	brief := sum
	brief.ToolCalls, brief.Stalls, brief.Turns = nil, nil, nil
	for _, s := range []Session{
		{Summary: sum},
		{Summary: sum, Decision: &decided, Decisions: []Decision{{Kind: NeedsFollowup, TurnID: "t1", CreatedAt: at}},
			Path: "/secret/path", Cwd: "/home"},
		{Summary: brief, Decision: &decided},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(&s); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := s.WriteJSON(&got, nil); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("WriteJSON:\n%s\nthe Encoder:\n%s", got.String(), want.String())
		}
		js := want.String()
		if strings.Contains(js, "/secret/path") || strings.Contains(js, "/home") {
			t.Errorf("the JSON carries the path or the working directory: %s", js)
		}
		if !strings.Contains(js, `,"approvalCount":0,"decision":`) {
			t.Errorf("the decision does not follow the summary's fields: %s", js)
		}
	}
}

// TestSessionWriteJSONEncoder: WriteJSON encodes every part with the
// encoder it is given.
func TestSessionWriteJSONEncoder(t *testing.T) {
	t.Parallel()
	var made int
	s := Session{Summary: summary.Summary{ToolCalls: []summary.ToolCall{{ID: "c1"}}, Stalls: []summary.Stall{}, Turns: []summary.Turn{}}}
	var got bytes.Buffer
	err := s.WriteJSON(&got, func(w io.Writer) summary.Encoder {
		made++
		return summary.NewEncoder(w)
	})
	if err != nil || made != 1 || !strings.Contains(got.String(), `"toolCalls":[{"id":"c1"`) {
		t.Errorf("WriteJSON: %v, %d encoders, %s", err, made, got.String())
	}
}
