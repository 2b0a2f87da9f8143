package search

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Field is what a filter looks at.
type Field string

// The filter fields.
const (
	FieldAgent    Field = "agent"
	FieldTool     Field = "tool"
	FieldFlag     Field = "flag"
	FieldModel    Field = "model"
	FieldOutcome  Field = "outcome"
	FieldDecision Field = "decision"
	FieldReviewer Field = "reviewer"
	FieldSince    Field = "since"
	FieldCost     Field = "cost"
	// FieldIs keeps the sessions in a review state: is:flagged (a flag,
	// or an open follow-up, as the inbox's f), is:undecided (as its u).
	FieldIs Field = "is"
)

// The values of is:.
const (
	IsFlagged   = "flagged"
	IsUndecided = "undecided"
)

// Fields lists the filter fields in the order help names them.
func Fields() []Field {
	return []Field{FieldAgent, FieldTool, FieldFlag, FieldModel, FieldOutcome, FieldDecision, FieldReviewer, FieldSince, FieldCost, FieldIs}
}

// Op is how a filter compares its field with its value.
type Op string

// The operators: ":" for every field but cost, which compares.
const (
	OpIs Op = ":"
	OpGT Op = ">"
	OpGE Op = ">="
	OpLT Op = "<"
	OpLE Op = "<="
)

// DecisionNone is the value of decision:none, the sessions without a
// session-level decision.
const DecisionNone = "none"

// Term is one word or phrase of a query.
type Term struct {
	// Text is the term as typed, without its quotes, its leading - or its
	// trailing *.
	Text string
	// Words are its words, lowercased: a session matches when they appear
	// in this order, next to each other. A word typed with punctuation
	// (src/a.go) is several words.
	Words []string
	// Prefix lets the last word match any word it starts: the word being
	// typed, or one typed with a trailing *.
	Prefix bool
	// Not excludes the sessions that contain the term.
	Not bool
	// Quoted is set for a "quoted phrase".
	Quoted bool
}

// Filter keeps the sessions whose field has a value.
type Filter struct {
	Field Field
	Op    Op
	// Value is the value as typed, lowercased. agent, tool, flag,
	// decision and reviewer match a value that starts with it; model one
	// that contains it.
	Value string
	// Not keeps the sessions the filter would drop (-agent:codex).
	Not bool
	// Since is the start of a since: filter's window.
	Since time.Time
	// Cost is a cost filter's figure, in USD.
	Cost float64
	// Outcome is an outcome filter's outcome.
	Outcome Outcome
	// Now is, on a team filter (team.go), the search's clock.
	Now time.Time
}

// Query is a parsed search. The zero Query matches every session.
type Query struct {
	Terms   []Term
	Filters []Filter
}

// IsZero reports whether the query has no term and no filter.
func (q *Query) IsZero() bool { return len(q.Terms) == 0 && len(q.Filters) == 0 }

// Positive returns the terms a session must contain.
func (q *Query) Positive() []Term {
	var out []Term
	for _, t := range q.Terms {
		if !t.Not {
			out = append(out, t)
		}
	}
	return out
}

// Negative returns the terms a session must not contain.
func (q *Query) Negative() []Term {
	var out []Term
	for _, t := range q.Terms {
		if t.Not {
			out = append(out, t)
		}
	}
	return out
}

// minTypedPrefix is the length a word being typed must reach before it
// narrows a search (Options.Typing).
const minTypedPrefix = 2

// Options tune Parse.
type Options struct {
	// Now is the time since: counts back from; zero means time.Now().
	Now time.Time
	// Typing is set while the query is being typed (the inbox's `/`):
	// its last word, when nothing follows it, matches any word it starts
	// (once it has two letters: one is left out), and a filter still
	// incomplete there (since:3, agent:) is left out
	// rather than an error.
	Typing bool
	// Reviewer is who the team filter mine means (team.go).
	Reviewer string
}

// ParseError is a query that cannot be read: a filter's value, an empty
// one, a part with nothing to search for or a quote never closed.
type ParseError struct {
	// Token is the part of the query at fault.
	Token string
	// Column is where in the query the problem is, counted in characters
	// from 1; 0 when it is the whole query (a bound it passed).
	Column int
	Err    error
}

// Error implements error.
func (e *ParseError) Error() string { return "search " + e.Problem() }

// Problem is the error without its "search" prefix: the part at fault,
// where it is, and why.
func (e *ParseError) Problem() string {
	if e.Column > 0 {
		return fmt.Sprintf("%q at column %d: %v", e.Token, e.Column, e.Err)
	}
	return fmt.Sprintf("%q: %v", e.Token, e.Err)
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// token is one space-separated part of a query.
type token struct {
	raw  string
	not  bool
	last bool // the last part, with nothing typed after it
	open bool // a quote it opened is not closed
	col  int  // its column in the query, from 1, its - included
}

// Bounds of a query: what a person types stays far below them, and a
// query sent to cost the store time and memory (200 × a*, a 48 KB query, a
// 3,000-letter word, 1,500 filters) is refused with the bound it passed,
// before the store sees it.
const (
	// MaxQueryBytes bounds a query's text.
	MaxQueryBytes = 2048
	// MaxTerms bounds its words, phrases and filters, once duplicates
	// are dropped.
	MaxTerms = 32
	// MaxWords bounds the words of all its terms (a phrase is several).
	MaxWords = 64
	// MaxWordBytes bounds a word: a longer one is left out of its term
	// (no word a person searches for is that long).
	MaxWordBytes = 64
	// MinPrefix is the least a word ending in * must have: one letter
	// starts most words.
	MinPrefix = 2
)

// ErrTooSlow is the error of a search that ran past its deadline (the
// store's SearchDeadline), inside a ParseError naming the query.
var ErrTooSlow = errors.New("the search took too long: narrow it with more words or filters")

// Parse reads a query: words, "quoted phrases", -exclusions and field
// filters (see Help). Every word and phrase must appear in a session;
// an excluded one must not; every filter must hold. A query past the
// bounds above is a ParseError naming the bound; repeated terms and
// filters count once.
func Parse(s string, o Options) (Query, error) {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if len(s) > MaxQueryBytes {
		return Query{}, &ParseError{Token: s[:32] + "…", Err: fmt.Errorf("a query of %d bytes is longer than %d", len(s), MaxQueryBytes)}
	}
	q, err := parse(s, o)
	if err != nil {
		return Query{}, err
	}
	q.dedupe()
	words := 0
	for _, t := range q.Terms {
		words += len(t.Words)
	}
	switch {
	case len(q.Terms)+len(q.Filters) > MaxTerms:
		return Query{}, &ParseError{Token: s[:min(len(s), 32)] + "…", Err: fmt.Errorf("at most %d terms and filters (this has %d)", MaxTerms, len(q.Terms)+len(q.Filters))}
	case words > MaxWords:
		return Query{}, &ParseError{Token: s[:min(len(s), 32)] + "…", Err: fmt.Errorf("at most %d words (this has %d)", MaxWords, words)}
	}
	return q, nil
}

// dedupe drops the terms and filters that repeat an earlier one.
func (q *Query) dedupe() {
	seen := map[string]bool{}
	q.Terms = slices.DeleteFunc(q.Terms, func(t Term) bool {
		k := fmt.Sprint(t.Not, t.Prefix, t.Quoted, t.Words)
		defer func() { seen[k] = true }()
		return seen[k]
	})
	clear(seen)
	q.Filters = slices.DeleteFunc(q.Filters, func(f Filter) bool {
		k := fmt.Sprint(f.Field, f.Op, f.Value, f.Not)
		defer func() { seen[k] = true }()
		return seen[k]
	})
}

// parse is Parse without its bounds.
func parse(s string, o Options) (Query, error) {
	var q Query
	for _, t := range lex(s) {
		typing := o.Typing && t.last
		f, ok, err := parseTeam(t, o)
		if !ok {
			f, ok, err = parseFilter(t, o.Now)
		}
		if ok {
			if err != nil {
				if typing {
					continue
				}
				return Query{}, at(err, t.col)
			}
			q.Filters = append(q.Filters, f)
			continue
		}
		term := parseTerm(t, typing)
		if skip, err := malformed(t, term, typing); err != nil {
			return Query{}, err
		} else if skip {
			continue
		}
		if typing && !term.Quoted && utf8.RuneCountInString(term.Text) < minTypedPrefix {
			// One letter being typed starts most words: the list waits
			// for the next rather than read nearly every session.
			continue
		}
		if term.Prefix && len(term.Words) == 1 && utf8.RuneCountInString(term.Words[0]) < MinPrefix {
			if typing {
				continue
			}
			return Query{}, &ParseError{Token: t.raw, Column: t.col, Err: fmt.Errorf("a word ending in * needs at least %d letters", MinPrefix)}
		}
		if slices.ContainsFunc(term.Words, func(w string) bool { return len(w) > MaxWordBytes }) {
			// No indexed word a person looks for is that long; one
			// sent to cost the index is left out.
			continue
		}
		if len(term.Words) > 0 {
			q.Terms = append(q.Terms, term)
		}
	}
	return q, nil
}

// at gives a filter's ParseError the column of its token.
func at(err error, col int) error {
	var pe *ParseError
	if errors.As(err, &pe) && pe.Column == 0 {
		pe.Column = col
	}
	return err
}

// malformed says what is wrong with a word or phrase that has nothing to
// search for (((((, a lone -, an empty phrase) or a quote never closed:
// read as nothing, such a query matched every session. While a query is
// typed, its last part may be the start of an exclusion or a phrase (-,
// ", -") and of a phrase not closed yet: skip leaves it out.
func malformed(t token, term Term, typing bool) (skip bool, err error) {
	fail := func(col int, format string, args ...any) (bool, error) {
		return false, &ParseError{Token: t.raw, Column: col, Err: fmt.Errorf(format, args...)}
	}
	if t.not {
		t.raw = "-" + t.raw
	}
	quote := t.col + utf8.RuneCountInString(t.raw[:strings.IndexByte(t.raw+`"`, '"')])
	switch {
	case typing && len(term.Words) == 0 && (t.raw == "-" || t.raw == `"` || t.raw == `-"`):
		return true, nil
	case typing && t.open:
		return false, nil
	case t.open:
		return fail(quote, "the quote opened here is not closed")
	case len(term.Words) > 0:
		return false, nil
	case t.raw == "-":
		return fail(t.col, "a - alone leaves out nothing: put it before a word, as in -flaky")
	case term.Quoted && strings.Trim(term.Text, " \t") == "":
		return fail(quote, "an empty phrase: put words between the quotes")
	}
	return fail(t.col, "nothing to search for: a word needs a letter or a digit")
}

// lex splits a query at spaces outside quotes.
func lex(s string) []token {
	var out []token
	i := 0
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return out
		}
		t := token{col: utf8.RuneCountInString(s[:i]) + 1}
		if s[i] == '-' && i+1 < len(s) && !isSpace(s[i+1]) {
			t.not = true
			i++
		}
		start := i
		for i < len(s) && !isSpace(s[i]) {
			if s[i] == '"' {
				j := strings.IndexByte(s[i+1:], '"')
				if j < 0 {
					i, t.open = len(s), true
					break
				}
				i += j + 1
			}
			i++
		}
		t.raw = s[start:i]
		t.last = i == len(s)
		out = append(out, t)
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// parseTerm reads a word or a phrase. typing makes its last word a
// prefix, unless a closed quote ends it.
func parseTerm(t token, typing bool) Term {
	raw := t.raw
	term := Term{Not: t.not, Quoted: strings.HasPrefix(raw, `"`)}
	closed := !t.open && strings.HasSuffix(raw, `"`) && len(raw) > 1
	raw = strings.ReplaceAll(raw, `"`, "")
	if !term.Quoted {
		if r := strings.TrimRight(raw, "*"); r != raw {
			raw, term.Prefix = r, true
		}
	}
	if typing && !(term.Quoted && closed) {
		term.Prefix = true
	}
	term.Text = raw
	term.Words = Words(raw)
	return term
}

// parseFilter reads a field filter; ok is false when the token is not one
// (no known field name before a ':' or, for cost, a comparison).
func parseFilter(t token, now time.Time) (f Filter, ok bool, err error) {
	raw := t.raw
	n := 0
	for n < len(raw) && ('a' <= raw[n]|0x20 && raw[n]|0x20 <= 'z') {
		n++
	}
	field := Field(strings.ToLower(raw[:n]))
	rest := raw[n:]
	var op Op
	for _, o := range []Op{OpGE, OpLE, OpGT, OpLT, OpIs} {
		if strings.HasPrefix(rest, string(o)) {
			op = o
			break
		}
	}
	if op == "" || !known(field) || (op != OpIs && field != FieldCost) {
		return f, false, nil
	}
	value := strings.ToLower(strings.Trim(rest[len(op):], `"`))
	f = Filter{Field: field, Op: op, Value: value, Not: t.not}
	fail := func(format string, args ...any) (Filter, bool, error) {
		return f, true, &ParseError{Token: t.raw, Err: fmt.Errorf(format, args...)}
	}
	if value == "" {
		return fail("%s needs a value", field)
	}
	switch field {
	case FieldSince:
		since, err := Since(value, now)
		if err != nil {
			return fail("%v", err)
		}
		f.Since = since
	case FieldCost:
		if op == OpIs {
			op = OpGE
			f.Op = op
		}
		v, err := strconv.ParseFloat(strings.TrimPrefix(value, "$"), 64)
		if err != nil || v != v || v < 0 {
			return fail("cost wants an amount in USD, such as cost>0.5")
		}
		f.Cost = v
	case FieldOutcome:
		for _, o := range Outcomes() {
			if strings.HasPrefix(string(o), value) {
				f.Outcome = o
				break
			}
		}
		if o, ok := legacyOutcome(value); ok && f.Outcome == "" {
			f.Outcome = o
		}
		if f.Outcome == "" {
			return fail("outcome is one of %s", joinOutcomes())
		}
	case FieldIs:
		switch {
		case value != "" && strings.HasPrefix(IsFlagged, value):
			f.Value = IsFlagged
		case value != "" && strings.HasPrefix(IsUndecided, value):
			f.Value = IsUndecided
		default:
			return fail("is is one of %s, %s", IsFlagged, IsUndecided)
		}
	case FieldDecision:
		if value != DecisionNone && !anyPrefixed(value, "reviewed", "needs_followup", "ignored") {
			return fail("decision is one of reviewed, needs_followup, ignored, none")
		}
	}
	return f, true, nil
}

func known(f Field) bool {
	for _, k := range Fields() {
		if k == f {
			return true
		}
	}
	return false
}

func anyPrefixed(v string, names ...string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, v) {
			return true
		}
	}
	return false
}

func joinOutcomes() string {
	var ns []string
	for _, o := range Outcomes() {
		ns = append(ns, string(o))
	}
	return strings.Join(ns, ", ")
}

// AllTime is how far back a since that means "everything" reaches: a
// duration past it (which time.Time would wrap into the future) reads as
// all time, the zero time.
const AllTime = 100 * 365 * 24 * time.Hour

// Since reads a since value, for the query's since: and every command's
// --since: a duration back from now (90m, 36h, 7d, 2w) or a date
// (2026-01-02). A duration past AllTime means all time: the zero time.
func Since(v string, now time.Time) (time.Time, error) {
	if d, err := time.ParseInLocation("2006-01-02", v, now.Location()); err == nil {
		return d, nil
	}
	back := func(n float64, unit time.Duration) time.Time {
		if n*float64(unit) > float64(AllTime) {
			return time.Time{}
		}
		return now.Add(-time.Duration(n * float64(unit)))
	}
	for _, u := range sinceUnits {
		num, ok := strings.CutSuffix(v, u.suffix)
		if !ok || num == "" || strings.ContainsAny(num, "+-eEnNiI_") {
			continue
		}
		if n, err := strconv.ParseFloat(num, 64); err == nil && n >= 0 {
			return back(n, u.unit), nil
		}
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return time.Time{}, fmt.Errorf("since wants a duration such as 90m, 36h, 7d or 2w, or a date such as 2026-01-02")
	}
	return back(1, d), nil
}

// sinceUnits are the units of a since duration of one number, longest
// suffix first ("ms" before "s"); time.ParseDuration reads the rest.
var sinceUnits = []struct {
	suffix string
	unit   time.Duration
}{{"ms", time.Millisecond}, {"d", 24 * time.Hour}, {"w", 7 * 24 * time.Hour}, {"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}}

// Words returns the words of a text, lowercased: its runs of letters and
// digits, as the store's index splits text (SQLite's unicode61).
func Words(s string) []string {
	var out []string
	for start, end := range wordSpans(s) {
		out = append(out, strings.ToLower(s[start:end]))
	}
	return out
}

// wordSpans yields the byte spans of the words of s.
func wordSpans(s string) func(yield func(int, int) bool) {
	return func(yield func(int, int) bool) {
		start := -1
		for i := 0; i < len(s); {
			r, n := rune(s[i]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(s[i:])
			}
			if isWordRune(r) {
				if start < 0 {
					start = i
				}
			} else if start >= 0 {
				if !yield(start, i) {
					return
				}
				start = -1
			}
			i += n
		}
		if start >= 0 {
			yield(start, len(s))
		}
	}
}

// isWordRune reports whether r belongs to a word: a letter, a digit or a
// private-use character, as SQLite's unicode61 tokenizer has it. The
// private-use character of PartSep is a word of its own in the index
// and none here, so that no query has it.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9'
	}
	return r != utf8.RuneError && r != sepRune && (unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r))
}

// sepRune is the character of PartSep.
const sepRune = '\uE000'
