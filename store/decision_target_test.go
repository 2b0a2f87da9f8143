package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// writeTurns writes a session of n turns, turn tK with the one tool call
// call_K, as an import would (its turns are packed once there are enough).
func writeTurns(t *testing.T, s *Store, wi, file string, n int) {
	t.Helper()
	r := fakeRow(t, fake{wi: wi, file: file}, 0)
	sum := r.sum
	sum.Turns, sum.ToolCalls = nil, nil
	for k := 1; k <= n; k++ {
		id := fmt.Sprintf("call_%d", k)
		sum.Turns = append(sum.Turns, summary.Turn{TurnID: fmt.Sprintf("t%d", k), ToolCallIDs: []string{id}})
		sum.ToolCalls = append(sum.ToolCalls, summary.ToolCall{ID: id, Name: "Bash", TurnID: fmt.Sprintf("t%d", k)})
	}
	sum.ToolCallCount = n
	row, err := newSessionRow(&ingest.Session{File: r.file, Summary: sum}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n >= 20 && (len(row.turns) == 0 || row.turns[0] != 0) {
		t.Fatal("the turns of the fixture are not packed")
	}
	if err := s.writeBatch(context.Background(), []*sessionRow{row}); err != nil {
		t.Fatal(err)
	}
}

func TestDecideChecksTurnAndToolCall(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	writeTurns(t, s, "wi", "a.jsonl", 20)
	writeTurns(t, s, "wi", "b.jsonl", 25)
	d := func(turn, call string) review.Decision {
		return review.Decision{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}, TurnID: turn, ToolCallID: call, Kind: review.Reviewed}
	}
	bad := []struct {
		name string
		d    review.Decision
		says []string
	}{
		{"unknown turn", d("t21", ""), []string{`turn "t21"`, "wi/a.jsonl", "t1…t20"}},
		{"unknown tool call", d("", "toolu_nope"), []string{`tool call "toolu_nope"`, "wi/a.jsonl"}},
		{"tool call of another session", d("", "call_25"), []string{`"call_25"`}},
		{"tool call of another turn", d("t2", "call_3"), []string{`"call_3"`, "turn t3", `turn "t2"`}},
		{"unknown turn with a real tool call", d("t99", "call_1"), []string{`"t99"`}},
	}
	for _, tc := range bad {
		err := s.Decide(ctx, tc.d)
		if !errors.Is(err, ErrUnknownTarget) || !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: %v, want ErrUnknownTarget", tc.name, err)
			continue
		}
		for _, w := range tc.says {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %s", tc.name, err, w)
			}
		}
	}
	if h, _ := s.Decisions(ctx, review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}); len(h) != 0 {
		t.Fatalf("rejected decisions were written: %+v", h)
	}
	for _, ok := range []review.Decision{d("", ""), d("t20", ""), d("", "call_7"), d("t7", "call_7")} {
		if err := s.Decide(ctx, ok); err != nil {
			t.Errorf("decision on %q/%q: %v", ok.TurnID, ok.ToolCallID, err)
		}
	}
}
