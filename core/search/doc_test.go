package search

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentsift/sift/core/summary"
)

func ptr[T any](v T) *T { return &v }

// sampleSummary is a session of two turns: a failing npm test, then a
// fix.
func sampleSummary() *summary.Summary {
	return &summary.Summary{
		WorkItemID: "ENG-7", FileName: "rework-2-a1b2c3.jsonl", Phase: "rework", Iteration: ptr(2), AgentKind: "droid",
		Model: "claude-opus-4-5", SessionID: "sess-1",
		Turns: []summary.Turn{
			{TurnID: "t1", Text: "Running the tests", Line: 3, EndLine: 6, Flags: []summary.Flag{summary.FlagToolFailed},
				FlagNotes: []summary.FlagNote{{Flag: summary.FlagToolFailed,
					Evidence: summary.Evidence{Sentence: "Bash exited 1: npm ERR! Test timed out", Line: 4, EndLine: 5, TurnID: "t1", CallID: "c1"}}}},
			{TurnID: "t2", Text: "Fixed the flaky spec", Line: 8, EndLine: 12},
		},
		ToolCalls: []summary.ToolCall{
			{ID: "c1", Name: "Bash", Title: "Run: npm test", InputSummary: "npm test", TurnID: "t1", Error: ptr("npm ERR! Test timed out")},
			{ID: "c2", Name: "Bash", InputSummary: "npm test", TurnID: "t2"},
			{ID: "c3", Name: "Edit", InputSummary: "src/a.go", TurnID: "t2"},
		},
		FinalAssistantMessage: ptr("All green.\n[stderr-tail]\nwarning: deprecated"),
		Flags:                 []summary.Flag{summary.FlagToolFailed, summary.FlagRunFailed},
		FlagNotes: []summary.FlagNote{{Flag: summary.FlagRunFailed,
			Evidence: summary.Evidence{Sentence: "run failed: the agent exited 1", Line: 12}}},
		Outcome:         summary.OutcomeFailed,
		OutcomeEvidence: summary.Evidence{Sentence: "the agent exited 1"},
	}
}

func TestNewDoc(t *testing.T) {
	t.Parallel()
	pieces := []Piece{
		{Where: InPrompt, Line: 1, Text: "fix the flaky test\nAPI key sk-ant-api03-" + strings.Repeat("a", 90)},
		{Where: InHarness, Line: 5, Text: "rate limited"},
	}
	d := NewDoc(sampleSummary(), pieces)
	body := d.Body()
	if strings.Contains(body, "sk-ant-api03") {
		t.Errorf("a secret in a piece was indexed: %q", body)
	}
	lines := strings.Split(body, "\n")
	if len(lines) != len(d.Parts) {
		t.Fatalf("%d lines for %d parts", len(lines), len(d.Parts))
	}
	find := func(where Where, text string) *Part {
		for i := range d.Parts {
			if d.Parts[i].Where == where && strings.Contains(d.Parts[i].Text, text) {
				return &d.Parts[i]
			}
		}
		t.Fatalf("no %s part with %q in\n%s", where, text, body)
		return nil
	}
	if p := find(InSession, "droid"); !strings.Contains(p.Text, "rework-2") || !strings.Contains(p.Text, "ENG-7") || len(p.At) != 0 {
		t.Errorf("session part %+v", p)
	}
	if p := find(InPrompt, "fix the flaky test API key"); p.At[0].TurnID != "t1" {
		t.Errorf("the prompt is not placed at the turn it starts: %+v", p)
	}
	if p := find(InInput, "npm test"); len(p.At) != 2 || p.At[0] != (Location{"t1", "c1"}) || p.At[1] != (Location{"t2", "c2"}) {
		t.Errorf("a recurring input is not one part at both calls: %+v", p)
	}
	if p := find(InTool, "Bash"); p.Text != "Bash" || len(p.At) != 2 || p.At[0].CallID != "c1" {
		t.Errorf("a title that repeats the input is not indexed again: %+v", p)
	}
	find(InError, "timed out")
	if p := find(InHarness, "rate limited"); p.At[0].TurnID != "t1" {
		t.Errorf("the harness error is not placed in its turn: %+v", p)
	}
	if p := find(InFinal, "All green. [stderr-tail] warning"); p.At[0].TurnID != "t2" {
		t.Errorf("final message %+v", p)
	}
	if p := find(InFlag, "tool_failed"); p.At[0].TurnID != "t1" {
		t.Errorf("a turn's flag %+v", p)
	}
	if p := find(InFlag, "run_failed"); len(p.At) != 0 {
		t.Errorf("the session's flag %+v", p)
	}
	// Each flag's sentence is indexed at its turn and call; the session's
	// at the session; the outcome with its evidence.
	if p := find(InFlag, "Bash exited 1: npm ERR"); len(p.At) != 1 || p.At[0] != (Location{"t1", "c1"}) {
		t.Errorf("a turn's flag sentence %+v", p)
	}
	if p := find(InFlag, "run failed: the agent exited 1"); len(p.At) != 0 {
		t.Errorf("the session's flag sentence %+v", p)
	}
	find(InOutcome, "failed: the agent exited 1")
	d.Add(InNote, "flaky\non CI", Location{TurnID: "t1"})
	if p := find(InNote, "flaky on CI"); p.At[0].TurnID != "t1" {
		t.Errorf("note %+v", p)
	}
}

func TestDocCaps(t *testing.T) {
	t.Parallel()
	s := &summary.Summary{AgentKind: "claude", FinalAssistantMessage: ptr("start " + strings.Repeat("x ", 20000) + " the end")}
	for i := range 3000 {
		s.ToolCalls = append(s.ToolCalls, summary.ToolCall{ID: "c", Name: "Bash", InputSummary: strings.Repeat("y", 400) + itoa(i)})
	}
	d := NewDoc(s, []Piece{{Where: InPrompt, Text: strings.Repeat("p", 3*MaxPartBytes)}})
	if n := len(d.Body()); n > MaxDocBytes {
		t.Errorf("body %d bytes, cap %d", n, MaxDocBytes)
	}
	for _, p := range d.Parts {
		limit := MaxPartBytes
		if p.Where == InFinal {
			limit = MaxFinalBytes
			if !strings.HasPrefix(p.Text, "start") || !strings.HasSuffix(p.Text, "the end") {
				t.Errorf("the final message keeps neither its start nor its end")
			}
		}
		if len(p.Text) > limit {
			t.Errorf("%s part of %d bytes", p.Where, len(p.Text))
		}
	}
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+i%10))) }

func TestOneLine(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain":                "plain",
		"  a\n\tb  \x01c\x02 ": "a b c",
		"bad \xff utf8":        "bad utf8",
		"é":                    "é",
		"a\u0085b":             "a b",
		"a\uFFFDb":             "a b",
	} {
		if got := oneLine(in, 100); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
	if got := oneLine("ééé", 5); got != "éé" {
		t.Errorf("cut inside a rune: %q", got)
	}
}

func TestMatchDoc(t *testing.T) {
	t.Parallel()
	d := NewDoc(sampleSummary(), nil)
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"droid rework", true},
		{"rework droid", true},
		{"droid rew", true},
		{`"npm test"`, true},
		{`"test npm"`, false},
		{"timed -flaky", false},
		{"timed -zebra", true},
		{"src/a.go", true},
		{"zebra", false},
	} {
		q, err := Parse(tc.q, Options{Typing: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := q.MatchDoc(d); got != tc.want {
			t.Errorf("MatchDoc(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
	// The failed call's error, and the sentence of the flag it raised.
	q, _ := Parse("timed", Options{})
	if ps := q.MatchingParts(d); len(ps) != 2 || d.Parts[ps[0]].Where != InError || d.Parts[ps[1]].Where != InFlag {
		t.Errorf("MatchingParts(timed) = %v", ps)
	}
}

func TestLoadDoc(t *testing.T) {
	t.Parallel()
	d := NewDoc(sampleSummary(), nil)
	back := LoadDoc(d.Body(), d.Parts)
	back.Add(InInput, "npm test", Location{TurnID: "t9", CallID: "c9"})
	back.Add(InNote, "flaky", Location{})
	if n := len(back.Parts); n != len(d.Parts)+1 {
		t.Fatalf("%d parts after a recurring input and a note, want %d", n, len(d.Parts)+1)
	}
	for i, p := range d.Parts {
		if back.Parts[i].Text != p.Text || back.Parts[i].Where != p.Where {
			t.Errorf("part %d: %+v, stored %+v", i, back.Parts[i], p)
		}
	}
	if !strings.HasSuffix(back.Body(), "\n"+PartSep+"flaky") {
		t.Errorf("the note is not the last line: %q", back.Body())
	}
}

// oneLineByRunes is oneLine's slow path as it was first written, rune by
// rune, with no fast path: the reference oneLine keeps to.
func oneLineByRunes(s string, n int) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == ' ' || r == utf8.RuneError || (r >= 0x80 && r < 0xa0) || r == sepRune {
			space = b.Len() > 0
			continue
		}
		w := utf8.RuneLen(r)
		if space {
			w++
		}
		if b.Len()+w > n {
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestOneLineAsByRunes: oneLine gives what the rune-by-rune reference
// does, for text with controls, invalid bytes, C1 controls, U+FFFD, the
// part separator and characters cut at the cap.
func TestOneLineAsByRunes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "Zé", " ", "  ", "\n", "\t", "\x7f", "\xc2\x85", "\xff", "\xe2\x82", "\uFFFD", "\uE000", "日本", "😀", "x y", "\r\n"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s, n := b.String(), 1+rng.IntN(24)
		if got, want := oneLine(s, n), oneLineByRunes(s, n); got != want {
			t.Fatalf("oneLine(%q, %d) = %q, want %q", s, n, got, want)
		}
	}
}

// BenchmarkNewDoc builds the document of a session of 200 turns, each with
// a command (40 distinct ones), as an import does for every session.
func BenchmarkNewDoc(b *testing.B) {
	s := &summary.Summary{AgentKind: "claude", Model: "claude-opus-4-5", WorkItemID: "wi", FileName: "f.jsonl"}
	for i := range 200 {
		turn := "t" + strconv.Itoa(i)
		s.Turns = append(s.Turns, summary.Turn{TurnID: turn, Text: "I will now run the tests of package " + strconv.Itoa(i) + " and read what they print"})
		s.ToolCalls = append(s.ToolCalls, summary.ToolCall{ID: "toolu_" + strconv.Itoa(i), TurnID: turn, Name: "Bash", Title: "Run",
			InputSummary: "go test ./core/pkg" + strconv.Itoa(i%40) + "/... -run TestSomething -count=1"})
	}
	b.ReportAllocs()
	for b.Loop() {
		NewDoc(s, nil)
	}
}
