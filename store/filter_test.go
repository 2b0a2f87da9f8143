package store

import (
	"context"
	"slices"
	"testing"

	"github.com/agentsift/sift/core/review"
)

// TestFilterMatchesAsTheInboxDoes imports every fixture and checks, for
// patterns that hit agents, labels, tool names and final messages, that
// the store's / filter selects exactly the sessions review.FilterMatches
// passes on their whole summaries, counts them, and groups them by work
// item.
func TestFilterMatchesAsTheInboxDoes(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	full := importFixtures(t, s, "ENG-1", "ENG-2", "OPS-3")
	for _, pattern := range []string{"bash", "rsh", "e", "ENG 2", "o3", "permission", "Édit", "zzz", "claude wrt"} {
		var want []string
		for i := range full {
			x := &full[i]
			var tools []string
			for _, c := range x.ToolCalls {
				tools = append(tools, c.Name)
			}
			f := review.FilterFields{Agent: x.AgentKind, WorkItem: x.WorkItemID, Phase: x.Phase, Iteration: x.Iteration,
				ToolNames: slices.Values(tools), Final: x.FinalAssistantMessage}
			if review.FilterMatches(pattern, f) {
				want = append(want, x.Key().String())
			}
		}
		slices.Sort(want)
		for _, q := range []review.Query{{Filter: pattern, Count: true}, {Filter: pattern, Sort: review.SortTriage, GroupByWorkItem: true, Count: true}} {
			p, err := s.ListSessions(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			done := map[string]bool{}
			for i, x := range p.Sessions {
				got = append(got, x.Key().String())
				if q.GroupByWorkItem && i > 0 && p.Sessions[i-1].WorkItemID != x.WorkItemID {
					done[p.Sessions[i-1].WorkItemID] = true
				}
				if q.GroupByWorkItem && done[x.WorkItemID] {
					t.Errorf("%q grouped: %s apart from its work item's other sessions", pattern, x.Key())
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) || p.Total != len(want) {
				t.Errorf("filter %q: %d sessions (total %d) %v, want %d %v", pattern, len(got), p.Total, got, len(want), want)
			}
			_, undecided, err := s.Counts(ctx, q)
			if err != nil || undecided != len(want) {
				t.Errorf("filter %q: %d undecided (%v), want %d", pattern, undecided, err, len(want))
			}
		}
	}
}

// TestToolNames reads the tool names of stored tool calls, plain and
// packed, and splits them back as the filter does, whatever they hold.
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
	for _, tc := range []struct {
		stored string
		want   []string
	}{
		{`["Bash","Read"]`, []string{"Bash", "Read"}},
		{`[]`, nil},
		{``, nil},
		{`["a\",\"b"]`, []string{`a","b`}},
		{`["x\u003cy"]`, []string{"x<y"}},
		{`[""]`, []string{""}},
		{`["only"]`, []string{"only"}},
	} {
		seq, err := toolNameSeq(tc.stored)
		var got []string
		if seq != nil {
			got = slices.Collect(seq)
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("toolNameSeq(%s) = %q, %v; want %q", tc.stored, got, err, tc.want)
		}
	}
	if _, err := toolNames([]byte(`{"not":"a list"}`)); err == nil {
		t.Error("a tool call column that is not a list was read")
	}
}

// TestFilterRowsFollowTheSummaries checks the filter's rows of imported
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
		seq, err := toolNameSeq(stored)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		if seq != nil {
			got = slices.Collect(seq)
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
