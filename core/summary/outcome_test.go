package summary

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/event"
)

// TestOutcomeFollowsEndsWithResult pins that a stream cut before its result
// line is of unknown outcome, and one of a harness that prints no result
// line is judged by how it ends, whatever the harness is called: the
// summarizer reads the parse's stats, not a list of harness names.
func TestOutcomeFollowsEndsWithResult(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(time.Time{}, user("go"))
	s.add(time.Time{}, text("working on it"))
	for _, tc := range []struct {
		name  string
		stats event.Stats
		want  Outcome
	}{
		{"a harness that ends with a result line", event.Stats{Agent: "claude", EndsWithResult: true}, OutcomeUnknown},
		{"a new harness that declares one", event.Stats{Agent: "newcli", EndsWithResult: true}, OutcomeUnknown},
		{"a harness that may just stop, on the agent's text", event.Stats{Agent: "opencode"}, OutcomeCompleted},
		{"a known name that declares none", event.Stats{Agent: "claude"}, OutcomeCompleted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := tc.stats
			st.Lines, st.Bytes = s.line, int64(s.line)*100
			sum := finish(s.evs, st)
			if sum.Outcome != tc.want || sum.AgentKind != tc.stats.Agent {
				t.Errorf("outcome %s, agent %q; want %s, %q", sum.Outcome, sum.AgentKind, tc.want, tc.stats.Agent)
			}
		})
	}
	// Raw lines alone are not a structured stream: never judged by their
	// end.
	var raw stream
	raw.add(time.Time{}, event.Update{SessionUpdate: event.Raw, Text: "plain text"})
	st := raw.stats()
	if sum := finish(raw.evs, st); sum.Outcome != OutcomeUnknown {
		t.Errorf("plaintext outcome %s, want unknown", sum.Outcome)
	}
}

// TestOutcomeFromTerminalEvents pins each outcome to the terminal event it
// is decided from, with the line of its evidence; and that the text of the
// stream never decides one (a message saying "error" is a message).
func TestOutcomeFromTerminalEvents(t *testing.T) {
	t.Parallel()
	fatal := event.Update{SessionUpdate: event.Error, Message: "The 'gpt-5.6-sol' model requires a newer version of Codex.", Fatal: true}
	failedResult := event.Update{SessionUpdate: event.Result, IsError: event.Bool(true), Subtype: "error_max_turns"}
	for _, tc := range []struct {
		name     string
		build    func(s *stream)
		history  bool
		exit     *int
		want     Outcome
		sentence string
		line     int
	}{
		{"a result line that reports success", func(s *stream) {
			s.add(time.Time{}, text("error: I fixed the failing test"))
			s.add(time.Time{}, result(10, false))
		}, false, nil, OutcomeCompleted, "the result line reports success", 2},
		{"a result line that reports an error, after work", func(s *stream) {
			s.add(time.Time{}, text("trying"))
			s.add(time.Time{}, failedResult)
		}, false, nil, OutcomeFailed, "the result line reports an error (error_max_turns)", 2},
		{"a fatal error before any agent event", func(s *stream) {
			s.add(time.Time{}, event.Update{SessionUpdate: event.SessionStart})
			s.add(time.Time{}, fatal)
			s.add(time.Time{}, event.Update{SessionUpdate: event.Result, IsError: event.Bool(true), Subtype: "turn.failed"})
		}, false, nil, OutcomeDiedBeforeStart, "The 'gpt-5.6-sol' model requires a newer version of Codex.", 2},
		{"a non-zero exit and no result", func(s *stream) {
			s.add(time.Time{}, text("half way"))
		}, false, ptr(2), OutcomeFailed, "the agent exited 2", 0},
		{"a non-zero exit before any agent event", func(s *stream) {
			s.add(time.Time{}, event.Update{SessionUpdate: event.SessionStart})
		}, false, ptr(1), OutcomeDiedBeforeStart, "the agent exited 1", 0},
		{"SIGTERM", func(s *stream) {
			s.add(time.Time{}, text("half way"))
		}, false, ptr(143), OutcomeInterrupted, "ended by SIGTERM (exit 143)", 0},
		{"a crash is no interruption", func(s *stream) {
			s.add(time.Time{}, text("half way"))
		}, false, ptr(139), OutcomeFailed, "the agent exited 139", 0},
		{"a stream that stops inside a tool call", func(s *stream) {
			s.add(time.Time{}, text("running the tests"))
			s.add(time.Time{}, call("c1", "Bash", `{"command":"go test ./..."}`))
		}, false, nil, OutcomeInterrupted, "the stream stops inside Bash, with no terminal line", 2},
		{"a stream that stops without its result line", func(s *stream) {
			s.add(time.Time{}, text("done, I think"))
		}, false, nil, OutcomeUnknown, "the stream stops before the harness's result line", 1},
		{"exit 0 and no result line", func(s *stream) {
			s.add(time.Time{}, text("done"))
		}, false, ptr(0), OutcomeCompleted, "the agent exited 0", 0},
		{"a history whose last message ended its turn", func(s *stream) {
			s.add(time.Time{}, user("fix it"))
			s.add(time.Time{}, text("all done")).Extra = map[string]any{"stop_reason": "end_turn"}
		}, true, nil, OutcomeCompleted, "the last assistant message ended its turn", 2},
		{"a history whose last message asked for a tool that answered", func(s *stream) {
			s.add(time.Time{}, text("let me look")).Extra = map[string]any{"stop_reason": "tool_use"}
			s.add(time.Time{}, call("c1", "Read", `{"file_path":"a.go"}`))
			s.add(time.Time{}, done("c1", "package a"))
		}, true, nil, OutcomeUnknown, "the stream stops before the assistant ended its turn", 3},
		{"a history left inside a tool call", func(s *stream) {
			s.add(time.Time{}, call("c1", "Bash", `{"command":"sleep 100"}`))
		}, true, nil, OutcomeInterrupted, "the stream stops inside Bash, with no terminal line", 1},
		{"a history that ends with an API error entry", func(s *stream) {
			s.add(time.Time{}, text("working")).Extra = map[string]any{"stop_reason": "end_turn"}
			s.add(time.Time{}, user("go on"))
			s.add(time.Time{}, event.Update{SessionUpdate: event.Error, Message: "API Error: 529 Overloaded"})
		}, true, nil, OutcomeFailed, "the stream ends with an error entry: API Error: 529 Overloaded", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var s stream
			tc.build(&s)
			st := s.stats()
			if tc.history {
				st.Agent, st.EndsWithResult = "claude-history", false
			}
			sum, _ := Events(s.evs, st, Options{ExitCode: tc.exit})
			ev := sum.OutcomeEvidence
			if sum.Outcome != tc.want || ev.Sentence != tc.sentence || ev.Line != tc.line {
				t.Errorf("outcome %s %q line %d; want %s %q line %d", sum.Outcome, ev.Sentence, ev.Line, tc.want, tc.sentence, tc.line)
			}
			failure := tc.want.IsFailure() || tc.exit != nil && *tc.exit == 143
			if hasFlag(sum.Flags, FlagRunFailed) != failure {
				t.Errorf("flags %v: run_failed should be %v", sum.Flags, failure)
			}
			if failure {
				i := slices.IndexFunc(sum.FlagNotes, func(n FlagNote) bool { return n.Flag == FlagRunFailed })
				if i < 0 || !strings.Contains(sum.FlagNotes[i].Sentence, tc.sentence) || sum.FlagNotes[i].Line <= 0 {
					t.Errorf("notes %+v, want run_failed with the outcome's evidence and a line", sum.FlagNotes)
				}
			}
		})
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

func ptr(v int) *int { return &v }

// TestHistoryEndingInAPIErrorFailed reads a Claude Code transcript whose
// last line is the API error entry Claude Code writes (isApiErrorMessage):
// the run failed, and the error is its evidence.
func TestHistoryEndingInAPIErrorFailed(t *testing.T) {
	t.Parallel()
	in := `{"parentUuid":null,"isSidechain":false,"type":"user","timestamp":"2026-04-17T08:10:00Z","sessionId":"s","message":{"role":"user","content":"fix it"}}
{"parentUuid":"a","isSidechain":false,"type":"assistant","timestamp":"2026-04-17T08:10:05Z","sessionId":"s","requestId":"r1","message":{"id":"m1","model":"claude-sonnet-4-5","role":"assistant","stop_reason":null,"content":[{"type":"text","text":"Looking."}],"usage":{"input_tokens":10,"output_tokens":2}}}
{"parentUuid":"b","isSidechain":false,"type":"assistant","isApiErrorMessage":true,"error":"rate_limit","timestamp":"2026-04-17T08:10:28Z","sessionId":"s","message":{"id":"m2","model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","usage":{"input_tokens":0,"output_tokens":0},"content":[{"type":"text","text":"You've hit your limit · resets 1:20am (Europe/Berlin)"}]}}
`
	sum, _, err := Analyze(strings.NewReader(in), Options{Agent: "claude-history"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Outcome != OutcomeFailed || sum.OutcomeEvidence.Line != 3 ||
		sum.OutcomeEvidence.Sentence != "the stream ends with an error entry: You've hit your limit · resets 1:20am (Europe/Berlin)" {
		t.Errorf("outcome %s %+v", sum.Outcome, sum.OutcomeEvidence)
	}
}
