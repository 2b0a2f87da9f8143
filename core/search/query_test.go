package search

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/summary"
)

var now = time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		typing   bool
		terms    []Term
		filters  []Filter
	}{
		{"words all match", "droid rework", false,
			[]Term{{Text: "droid", Words: []string{"droid"}}, {Text: "rework", Words: []string{"rework"}}}, nil},
		{"the last word is a prefix while typing", "droid rew", true,
			[]Term{{Text: "droid", Words: []string{"droid"}}, {Text: "rew", Words: []string{"rew"}, Prefix: true}}, nil},
		{"one letter being typed waits for the next", "droid r", true,
			[]Term{{Text: "droid", Words: []string{"droid"}}}, nil},
		{"one letter alone while typing is no search yet", "s", true, nil, nil},
		{"one letter typed and ended is a word", "droid r", false,
			[]Term{{Text: "droid", Words: []string{"droid"}}, {Text: "r", Words: []string{"r"}}}, nil},
		{"a space ends the word being typed", "droid rew ", true,
			[]Term{{Text: "droid", Words: []string{"droid"}}, {Text: "rew", Words: []string{"rew"}}}, nil},
		{"a trailing star is a prefix", "npm* test", false,
			[]Term{{Text: "npm", Words: []string{"npm"}, Prefix: true}, {Text: "test", Words: []string{"test"}}}, nil},
		{"a phrase", `"npm test" TIMED`, false,
			[]Term{{Text: "npm test", Words: []string{"npm", "test"}, Quoted: true}, {Text: "TIMED", Words: []string{"timed"}}}, nil},
		{"a phrase being typed", `"rm -r`, true,
			[]Term{{Text: "rm -r", Words: []string{"rm", "r"}, Quoted: true, Prefix: true}}, nil},
		{"a closed phrase is whole while typing", `"rm -rf"`, true,
			[]Term{{Text: "rm -rf", Words: []string{"rm", "rf"}, Quoted: true}}, nil},
		{"exclusions", `flaky -codex -"go vet"`, false,
			[]Term{{Text: "flaky", Words: []string{"flaky"}}, {Text: "codex", Words: []string{"codex"}, Not: true},
				{Text: "go vet", Words: []string{"go", "vet"}, Not: true, Quoted: true}}, nil},
		{"punctuation splits a word into a phrase", "src/a.go", false,
			[]Term{{Text: "src/a.go", Words: []string{"src", "a", "go"}}}, nil},
		{"a dash or a quote being typed waits for its word", `flaky -`, true,
			[]Term{{Text: "flaky", Words: []string{"flaky"}}}, nil},
		{"an open quote being typed waits for its word", `flaky "`, true,
			[]Term{{Text: "flaky", Words: []string{"flaky"}}}, nil},
		{"an unknown field is text", "http://x.dev", false,
			[]Term{{Text: "http://x.dev", Words: []string{"http", "x", "dev"}}}, nil},
		{"field filters", `agent:Codex tool:bash flag:stall model:"opus 4" decision:needs reviewer:ana -outcome:fail`, false, nil,
			[]Filter{{Field: FieldAgent, Op: OpIs, Value: "codex"}, {Field: FieldTool, Op: OpIs, Value: "bash"},
				{Field: FieldFlag, Op: OpIs, Value: "stall"}, {Field: FieldModel, Op: OpIs, Value: "opus 4"},
				{Field: FieldDecision, Op: OpIs, Value: "needs"}, {Field: FieldReviewer, Op: OpIs, Value: "ana"},
				{Field: FieldOutcome, Op: OpIs, Value: "fail", Not: true, Outcome: summary.OutcomeFailed}}},
		{"cost compares", "cost>0.5 cost<=$2", false, nil,
			[]Filter{{Field: FieldCost, Op: OpGT, Value: "0.5", Cost: 0.5}, {Field: FieldCost, Op: OpLE, Value: "$2", Cost: 2}}},
		{"since a duration, days, weeks or a date", "since:36h since:7d since:2w since:2026-03-01", false, nil,
			[]Filter{{Field: FieldSince, Op: OpIs, Value: "36h", Since: now.Add(-36 * time.Hour)},
				{Field: FieldSince, Op: OpIs, Value: "7d", Since: now.Add(-7 * 24 * time.Hour)},
				{Field: FieldSince, Op: OpIs, Value: "2w", Since: now.Add(-14 * 24 * time.Hour)},
				{Field: FieldSince, Op: OpIs, Value: "2026-03-01", Since: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}}},
		{"an incomplete filter is left out while typing", "timeout since:3", true,
			[]Term{{Text: "timeout", Words: []string{"timeout"}}}, nil},
		{"an empty filter is left out while typing", "agent:", true, nil, nil},
		{"review states, from their start", "is:flagged -is:UND", false, nil,
			[]Filter{{Field: FieldIs, Op: OpIs, Value: IsFlagged}, {Field: FieldIs, Op: OpIs, Value: IsUndecided, Not: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := Parse(tc.in, Options{Now: now, Typing: tc.typing})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(q.Terms, tc.terms) {
				t.Errorf("terms\n got %+v\nwant %+v", q.Terms, tc.terms)
			}
			if !reflect.DeepEqual(q.Filters, tc.filters) {
				t.Errorf("filters\n got %+v\nwant %+v", q.Filters, tc.filters)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"since:3", "since:yesterday", "cost>abc", "cost>-1", "outcome:great", "decision:approved", "agent:", `model:""`, "is:decided", "is:"} {
		_, err := Parse(in, Options{Now: now})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Token == "" {
			t.Errorf("Parse(%q): %v, want a ParseError naming the token", in, err)
		}
	}
	if q, err := Parse("", Options{}); err != nil || !q.IsZero() {
		t.Errorf("empty query: %+v %v", q, err)
	}
}

// TestParseMalformed: a query with a part that has nothing to search for
// or a quote never closed names the part, its column and the problem;
// read as nothing, each matched every session (issue 29, item 8). While
// typing, the same parts are errors unless they may still become a word.
func TestParseMalformed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in     string
		typing bool
		token  string
		column int
		says   string
	}{
		{`"`, false, `"`, 1, "not closed"},
		{`((((`, false, `((((`, 1, "nothing to search for"},
		{`-`, false, `-`, 1, "a - alone"},
		{`flaky - timeout`, false, `-`, 7, "a - alone"},
		{`flaky - timeout`, true, `-`, 7, "a - alone"},
		{`"npm test`, false, `"npm test`, 1, "not closed"},
		{`é -"go vet`, false, `-"go vet`, 4, "not closed"},
		{`timeout ""`, false, `""`, 9, "an empty phrase"},
		{`timeout -"  "`, false, `-"  "`, 10, "an empty phrase"},
		{`&& timeout`, true, `&&`, 1, "nothing to search for"},
		{`timeout ((((`, true, `((((`, 9, "nothing to search for"},
		{`cost>abc timeout`, false, `cost>abc`, 1, "cost wants"},
		{`timeout since:3`, false, `since:3`, 9, "since wants"},
	} {
		_, err := Parse(tc.in, Options{Now: now, Typing: tc.typing})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Token != tc.token || pe.Column != tc.column || !strings.Contains(pe.Err.Error(), tc.says) {
			t.Errorf("Parse(%q, typing %v) = %v; want a ParseError at %q, column %d, saying %q", tc.in, tc.typing, err, tc.token, tc.column, tc.says)
			continue
		}
		if want := fmt.Sprintf("at column %d: ", tc.column); !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %q does not say %q", tc.in, err, want)
		}
	}
	if q, err := Parse(`"npm te`, Options{Typing: true}); err != nil || len(q.Terms) != 1 {
		t.Errorf("a phrase being typed: %+v, %v; want its term", q, err)
	}
}

func TestOutcomes(t *testing.T) {
	t.Parallel()
	// Each outcome is found from its start; the names of the statuses
	// the outcome replaced still filter.
	for in, want := range map[string]summary.Outcome{
		"fail": summary.OutcomeFailed, "died": summary.OutcomeDiedBeforeStart, "int": summary.OutcomeInterrupted,
		"unk": summary.OutcomeUnknown, "comp": summary.OutcomeCompleted, "success": summary.OutcomeCompleted,
		"error": summary.OutcomeFailed,
	} {
		q, err := Parse("outcome:"+in, Options{})
		if err != nil || len(q.Filters) != 1 || q.Filters[0].Outcome != want {
			t.Errorf("outcome:%s: %+v %v, want %s", in, q.Filters, err, want)
		}
	}
	if _, err := Parse("outcome:incomplete", Options{}); err == nil || !strings.Contains(err.Error(), "died_before_start") {
		t.Errorf("outcome:incomplete: %v, want an error naming the outcomes", err)
	}
}

// TestOutcomeWordsFilter: every outcome's word, as the views show it
// (summary.Outcome.Word), is a value of outcome: that selects it, and no
// two outcomes share a word.
func TestOutcomeWordsFilter(t *testing.T) {
	t.Parallel()
	seen := map[string]summary.Outcome{}
	for _, o := range Outcomes() {
		w := o.Word()
		if prev, ok := seen[w]; ok {
			t.Errorf("%s and %s both read %q", prev, o, w)
		}
		seen[w] = o
		q, err := Parse("outcome:"+w, Options{})
		if err != nil || len(q.Filters) != 1 || q.Filters[0].Outcome != o {
			t.Errorf("outcome:%s: %+v %v, want %s", w, q.Filters, err, o)
		}
	}
}

func TestWords(t *testing.T) {
	t.Parallel()
	got := Words("Run: npm test -- --grep=Flaky_Spec in src/Café.go 42x")
	want := []string{"run", "npm", "test", "grep", "flaky", "spec", "in", "src", "café", "go", "42x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Words: %q, want %q", got, want)
	}
}

func TestHighlight(t *testing.T) {
	t.Parallel()
	q, _ := Parse(`"npm test" -flaky tim`, Options{Typing: true})
	text := "ran npm test: timed out (npm, test) flaky"
	var got []string
	for _, s := range q.Highlight(text) {
		got = append(got, text[s[0]:s[1]])
	}
	want := []string{"npm test", "timed", "npm, test"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Highlight: %q, want %q", got, want)
	}
	if q.Highlight("") != nil {
		t.Error("an empty text has highlights")
	}
}

func TestSnip(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("word ", 30) + "the npm test timed out " + strings.Repeat("tail ", 30)
	i := strings.Index(text, "npm")
	snip, marks := Snip(text, [][2]int{{i, i + 3}}, 80)
	if len(snip) > 80 || !strings.HasPrefix(snip, "…") || !strings.HasSuffix(snip, "…") {
		t.Errorf("snippet %q (%d bytes)", snip, len(snip))
	}
	if len(marks) != 1 || snip[marks[0][0]:marks[0][1]] != "npm" {
		t.Errorf("marks %v in %q", marks, snip)
	}
	short, m := Snip("npm test", [][2]int{{0, 3}}, 80)
	if short != "npm test" || len(m) != 1 {
		t.Errorf("a short text is cut: %q %v", short, m)
	}
}

// A since past a hundred years means all time, never a time that wrapped
// into the future (Hardening II, item 12); shorter ones reach back as
// asked.
func TestSinceAllTime(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	for _, v := range []string{"106752d", "999999d", "9999999999d", "5300w", "1000000h", "99999999999999999999h", "2562047h"} {
		got, err := Since(v, now)
		if err != nil || !got.IsZero() {
			t.Errorf("Since(%q) = %v, %v: want all time (the zero time)", v, got, err)
		}
	}
	for v, want := range map[string]time.Time{
		"36h":        now.Add(-36 * time.Hour),
		"7d":         now.Add(-7 * 24 * time.Hour),
		"2w":         now.Add(-14 * 24 * time.Hour),
		"90m":        now.Add(-90 * time.Minute),
		"1h30m":      now.Add(-90 * time.Minute),
		"36500d":     now.Add(-36500 * 24 * time.Hour),
		"2026-01-02": time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
	} {
		if got, err := Since(v, now); err != nil || !got.Equal(want) {
			t.Errorf("Since(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	for _, v := range []string{"-3d", "1e9h", "NaNh", "Infd", "d", "yesterday", "3"} {
		if got, err := Since(v, now); err == nil {
			t.Errorf("Since(%q) = %v, want an error", v, got)
		}
	}
}

// TestParseBounds: terms and filters repeated count once; past the bounds
// a query is a ParseError naming the bound; a word longer than any a
// person searches for is left out (Hardening II, item 4).
func TestParseBounds(t *testing.T) {
	t.Parallel()
	q, err := Parse(strings.Repeat("timeout* agent:codex ", 90), Options{})
	if err != nil || len(q.Terms) != 1 || len(q.Filters) != 1 {
		t.Fatalf("90 repeats: %+v, %v; want one term and one filter", q, err)
	}
	var many []string
	for i := range MaxTerms + 1 {
		many = append(many, fmt.Sprintf("w%d", i))
	}
	for in, want := range map[string]string{
		strings.Join(many, " "):    "at most 32 terms and filters",
		strings.Repeat("ab ", 700): "longer than 2048",
		"a*":                       "at least 2 letters",
		strings.Repeat(`"a b c d e f g h" `, 1) + strings.Repeat(`"i j k l m n o p q r s t u v w x y z 1 2 3 4 5 6 7 8 9 0 a1 b1 c1 d1 e1 f1 g1 h1 i1 j1 k1 l1 m1 n1 o1 p1 q1 r1 s1 t1 u1 v1 w1 x1 y1 z1 a2 b2 c2 d2 e2 f2" `, 1): "at most 64 words",
	} {
		_, err := Parse(in, Options{})
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%.40q) = %v, want a ParseError saying %q", in, err, want)
		}
	}
	q, err = Parse("permission "+strings.Repeat("z", MaxWordBytes+1), Options{})
	if err != nil || len(q.Terms) != 1 || q.Terms[0].Text != "permission" {
		t.Errorf("an overlong word: %+v, %v; want it left out", q, err)
	}
	if q, err := Parse("a", Options{Typing: true}); err != nil || !q.IsZero() {
		t.Errorf("one letter being typed: %+v, %v; want it left out, no error", q, err)
	}
}
