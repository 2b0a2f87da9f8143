package summary

import (
	"testing"
	"time"

	"github.com/agentsift/sift/core/event"
)

// TestOutcomeFollowsEndsWithResult pins that a stream cut before its result
// line is incomplete when the parse says its harness always ends with one,
// and of unknown outcome otherwise, whatever the harness is called: the
// summarizer reads the parse's stats, not a list of harness names.
func TestOutcomeFollowsEndsWithResult(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(time.Time{}, user("go"))
	s.add(time.Time{}, text("working on it"))
	for _, tc := range []struct {
		name  string
		stats event.Stats
		want  RunStatus
	}{
		{"a harness that ends with a result line", event.Stats{Agent: "claude", EndsWithResult: true}, RunIncomplete},
		{"a new harness that declares one", event.Stats{Agent: "newcli", EndsWithResult: true}, RunIncomplete},
		{"a harness that may just stop", event.Stats{Agent: "opencode"}, RunUnknown},
		{"a known name that declares none", event.Stats{Agent: "claude"}, RunUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := tc.stats
			st.Lines, st.Bytes = s.line, int64(s.line)*100
			sum := finish(s.evs, st)
			if sum.Status != tc.want || sum.AgentKind != tc.stats.Agent {
				t.Errorf("status %s, agent %q; want %s, %q", sum.Status, sum.AgentKind, tc.want, tc.stats.Agent)
			}
		})
	}
	// Raw lines alone are not a structured stream: never incomplete.
	var raw stream
	raw.add(time.Time{}, event.Update{SessionUpdate: event.Raw, Text: "plain text"})
	st := raw.stats()
	if sum := finish(raw.evs, st); sum.Status != RunUnknown {
		t.Errorf("plaintext status %s, want unknown", sum.Status)
	}
}

// finish folds events into a builder and finishes it with st.
func finish(evs []*event.Event, st event.Stats) *Summary {
	b := NewBuilder(Options{})
	for _, ev := range evs {
		b.Add(ev)
	}
	sum, _ := b.Finish(st)
	return sum
}
