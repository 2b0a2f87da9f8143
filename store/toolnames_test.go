package store

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
)

// TestToolNames reads the tool names of stored tool calls, plain and
// packed, whatever they hold.
func TestToolNames(t *testing.T) {
	t.Parallel()
	calls := []byte(`[{"id":"1","name":"Bash"},{"id":"2","name":"Read"},{"id":"3","name":"Bash"},` +
		`{"id":"4","name":"say \"hi\", then\nleave"},{"id":"5","name":"écrire\u003c"}]`)
	want := []string{"Bash", "Read", "say \"hi\", then\nleave", "écrire<"}
	for _, col := range [][]byte{calls, new(packScratch).pack(calls)} {
		names, err := toolNames(col)
		if err != nil || !slices.Equal(names, want) {
			t.Fatalf("toolNames = %q, %v; want %q", names, err, want)
		}
	}
	if _, err := toolNames([]byte(`{"not":"a list"}`)); err == nil {
		t.Error("a tool call column that is not a list was read")
	}
}

// TestFilterRowsFollowTheSummaries checks the tool names rows of imported
// sessions (each session's distinct tool names, as its calls have them)
// and that they go with their summaries.
func TestFilterRowsFollowTheSummaries(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	for _, x := range importFixtures(t, s, "wi") {
		var stored string
		if err := s.r.QueryRow(`SELECT tool_names FROM session_filter WHERE work_item_id = ? AND file_name = ?`,
			x.WorkItemID, x.FileName).Scan(&stored); err != nil {
			t.Fatalf("%s: %v", x.Key(), err)
		}
		var got, want []string
		if err := json.Unmarshal([]byte(stored), &got); err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 {
			got = nil
		}
		for _, c := range x.ToolCalls {
			if !slices.Contains(want, c.Name) {
				want = append(want, c.Name)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: filter's tool names %q, want %q", x.Key(), got, want)
		}
	}
	if err := s.RetryWorkItem(ctx, "wi"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.r.QueryRow(`SELECT COUNT(*) FROM session_filter`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d filter rows (%v) outlive their summaries", n, err)
	}
}
