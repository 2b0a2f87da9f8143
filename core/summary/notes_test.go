package summary

import (
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/event"
)

// TestToolTimeIsNotAStall pins that a long-running tool is tool time: the
// wait on it is listed and counted but flags its turn only past the tool
// threshold, or when the tool then failed.
func TestToolTimeIsNotAStall(t *testing.T) {
	t.Parallel()
	run := func(gap time.Duration, ok bool, opt Options) *Summary {
		var s stream
		s.add(at(0), user("run the tests"))
		s.add(at(1), text("running them"))
		s.add(at(2), call("a", "Bash", `{"command":"go test ./..."}`))
		end := at(2 + gap.Seconds())
		if ok {
			s.add(end, done("a", "ok"))
		} else {
			s.add(end, failed("a", "signal: killed\ntimeout"))
		}
		s.add(end.Add(time.Second), text("done"))
		s.add(end.Add(2*time.Second), result(0, false))
		sum, _ := s.summarize(t, opt)
		return sum
	}
	for _, tc := range []struct {
		name    string
		gap     time.Duration
		ok      bool
		opt     Options
		flagged bool
		note    string
	}{
		{"a 40 s go test", 40 * time.Second, true, Options{}, false, ""},
		{"a 9 min build", 9 * time.Minute, true, Options{}, false, ""},
		{"past the default 10 minutes", 11 * time.Minute, true, Options{}, true, "Bash ran 11 min (lines 3–4)"},
		{"past a configured threshold", 2 * time.Minute, true, Options{ToolStallThreshold: time.Minute}, true, "Bash ran 2 min (lines 3–4)"},
		{"a tool that then failed", 40 * time.Second, false, Options{}, true, "Bash ran 40 s, then failed (lines 3–4)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sum := run(tc.gap, tc.ok, tc.opt)
			want := 0
			if tc.flagged {
				want = 1 // tool time is listed, counted only as a stall
			}
			if len(sum.Stalls) != 1 || sum.StallCount != want || sum.Stalls[0].Kind != StallTool || sum.Stalls[0].ToolCallID != "a" {
				t.Fatalf("stalls %+v (count %d), want the one wait on call a, counted %d", sum.Stalls, sum.StallCount, want)
			}
			t1 := sum.Turns[0]
			if sum.Stalls[0].Flagged != tc.flagged || hasFlag(t1.Flags, FlagStall) != tc.flagged {
				t.Errorf("stall flagged %v, turn flags %v; want flagged %v", sum.Stalls[0].Flagged, t1.Flags, tc.flagged)
			}
			var got string
			for _, n := range t1.FlagNotes {
				if n.Flag == FlagStall {
					got = n.String()
				}
			}
			if got != tc.note {
				t.Errorf("stall note %q, want %q", got, tc.note)
			}
		})
	}
}

// TestFlagNotes pins the sentence and lines of each flag a turn or the
// session raises.
func TestFlagNotes(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(time.Time{}, user("tidy up"))
	s.add(time.Time{}, call("a", "Bash", `{"command":"rm -rf build > log"}`))
	deny := failed("a", "Permission to use Bash has been denied.")
	deny.ApprovalRequired, deny.Message = true, "Command contains output redirection"
	s.add(time.Time{}, deny)
	s.add(time.Time{}, call("b", "Bash", `{"command":"make"}`))
	f := failed("b", "make: *** [all] Error 2\nmore output")
	f.ExitCode = event.Int(2)
	s.add(time.Time{}, f)
	s.add(time.Time{}, event.Update{SessionUpdate: event.Error, Message: "stream disconnected; retrying"})
	s.add(time.Time{}, call("c", "Read", `{"file_path":"a.go"}`))
	sum, _ := s.summarize(t, Options{ExitCode: event.Int(1)})
	want := []string{
		"approval_required t1: Bash denied: Command contains output redirection (line 3)",
		"tool_failed t2: Bash exited 2: make: *** [all] Error 2 (lines 4–5)",
		"harness_error t2: harness error: stream disconnected; retrying (line 6)",
		"unfinished_tool t3: Read never returned a result (line 7)",
	}
	var got []string
	for _, tu := range sum.Turns {
		for _, n := range tu.FlagNotes {
			got = append(got, string(n.Flag)+" "+n.TurnID+": "+n.String())
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("turn notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The session's own note comes first, then the turns', each with a
	// line: the exit code points at the stream's last line.
	if n := sum.FlagNotes[0]; n.Flag != FlagRunFailed || n.String() != "run failed: the agent exited 1 (line 7)" {
		t.Errorf("first session note %+v", n)
	}
	if len(sum.FlagNotes) != 1+len(want) {
		t.Errorf("%d session notes, want %d", len(sum.FlagNotes), 1+len(want))
	}
	if sum.Outcome != OutcomeFailed {
		t.Errorf("outcome %s, want failed", sum.Outcome)
	}
}

// TestTokenSpikeNote pins the spike's sentence: its size and its ratio to
// the session's median turn.
func TestTokenSpikeNote(t *testing.T) {
	t.Parallel()
	var s stream
	for i, n := range []int64{20_000, 21_000, 22_000, 88_000} {
		s.add(time.Time{}, user("next"))
		ev := s.add(time.Time{}, text("turn"))
		ev.MessageID = "m" + itoa(int64(i))
		u := s.add(time.Time{}, callUsage(n, 0))
		u.MessageID = ev.MessageID
	}
	sum, _ := s.summarize(t, Options{})
	t4 := sum.Turns[3]
	if len(t4.FlagNotes) != 1 || t4.FlagNotes[0].String() != "token spike in t4: 88k tokens, 4.1× the session median (line 11)" {
		t.Errorf("t4 notes %+v", t4.FlagNotes)
	}
}

// TestNotesCapped pins the caps: a turn keeps MaxTurnNotes notes, the
// session MaxSessionNotes.
func TestNotesCapped(t *testing.T) {
	t.Parallel()
	var s stream
	for i := range 3 {
		s.add(time.Time{}, user("again"))
		// Twelve parallel calls of one message, then their results.
		for j := range 12 {
			s.add(time.Time{}, call(itoa(int64(i*100+j)), "Bash", `{"command":"false"}`)).MessageID = "m" + itoa(int64(i))
		}
		for j := range 12 {
			s.add(time.Time{}, failed(itoa(int64(i*100+j)), "exit 1"))
		}
	}
	sum, _ := s.summarize(t, Options{})
	if len(sum.Turns) != 3 {
		t.Fatalf("%d turns, want 3", len(sum.Turns))
	}
	for _, tu := range sum.Turns {
		if len(tu.FlagNotes) != MaxTurnNotes {
			t.Errorf("%s: %d notes, want %d", tu.TurnID, len(tu.FlagNotes), MaxTurnNotes)
		}
	}
	if len(sum.FlagNotes) != MaxSessionNotes {
		t.Errorf("%d session notes, want %d", len(sum.FlagNotes), MaxSessionNotes)
	}
}

// TestEveryStreamFlagReadsAsSentence walks every recorded stream of
// testdata/streams, with and without an invocation window (which makes
// stalls of timestamp-less streams), and fails on a flag without a
// sentence and a line.
func TestEveryStreamFlagReadsAsSentence(t *testing.T) {
	t.Parallel()
	window := Options{Start: t0, End: t0.Add(20 * time.Minute), ExitCode: event.Int(1)}
	for _, path := range fixtures(t) {
		for _, opt := range []Options{{}, window} {
			opt.Agent = string(folderAgent(path))
			sum, _, err := AnalyzeFile(path, opt)
			if err != nil {
				t.Fatal(err)
			}
			if bad := Unexplained(sum); len(bad) > 0 {
				t.Errorf("%s (window %v): flags without a sentence and a line: %v", goldenName(path), !opt.Start.IsZero(), bad)
			}
		}
	}
	// A summary stored before sentences lists its flags.
	old := &Summary{Flags: []Flag{FlagRunFailed}, Turns: []Turn{{TurnID: "t1", Flags: []Flag{FlagStall}}}}
	if got := strings.Join(Unexplained(old), ","); got != "t1 stall,session run_failed" {
		t.Errorf("Unexplained(old) = %q", got)
	}
}
