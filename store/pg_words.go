package store

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgtype"
)

// On PostgreSQL a search document's words are a tsvector: the body's runs
// of letters and digits, lower-cased, each with its positions, as
// to_tsvector('simple', regexp_replace(lower(body), '[^[:alnum:]]+', ' ',
// 'g')) makes them (migrations/0010_init.pg.sql), the words FTS5's unicode61
// tokenizer makes on SQLite. Computing that on the server was a third of
// its time in an import: the regular expression and the parser run over
// every byte of every document, in the one connection the import writes
// on. The store therefore writes the words itself, as a tsvector the
// server only has to read, for a body whose letters and digits are
// ASCII (its other characters punctuation, symbols and spaces), where the
// words are the runs of [a-z0-9] (TestPostgresWordsMatchServer checks
// it against the server, quirks of its parser included); any other
// body's words the server computes as before (its trigger,
// migrations/0017_feed_words.pg.sql).

// The limits of a tsvector (PostgreSQL's ts_type.h): a word's positions
// stop at pgMaxPos, a word keeps at most pgMaxPositions of them, and the
// parser skips a word of pgMaxWordLen bytes or more without counting it.
const (
	pgMaxPos       = 1<<14 - 1
	pgMaxPositions = 255
	pgMaxWordLen   = 2047
)

// pgWords returns the tsvector of a body's words, and false for a body
// with a letter or digit that is not ASCII, or that is not UTF-8. pgx
// sends it in the binary form, which the server reads without parsing.
func pgWords(body string) (pgtype.TSVector, bool) {
	pos := map[string][]pgtype.TSVectorPosition{}
	var order []string
	n := 0
	for i := 0; i < len(body); {
		c := body[i]
		if c >= 0x80 {
			// A punctuation mark, symbol or space (a curly quote, an
			// arrow, an emoji) parts words as ASCII punctuation does,
			// and so does a private-use character (the search
			// document's own separator between its parts);
			// a letter or digit of another script is the server's to
			// read, and so is a symbol that is a letter too (the
			// circled letters, which the C library calls alphabetic).
			r, size := utf8.DecodeRuneInString(body[i:])
			if r == utf8.RuneError && size <= 1 || !unicode.In(r, unicode.P, unicode.S, unicode.Z, unicode.Co) ||
				unicode.Is(unicode.Other_Alphabetic, r) {
				return pgtype.TSVector{}, false
			}
			i += size
			continue
		}
		if !isAlnum(c) {
			i++
			continue
		}
		j := i
		for j < len(body) && isAlnum(body[j]) {
			j++
		}
		// A byte past the word may start a letter of another script
		// that belongs to it: the next turn refuses the body.
		for _, w := range pgTokens(strings.ToLower(body[i:j])) {
			if len(w) >= pgMaxWordLen {
				continue
			}
			n++
			ps, ok := pos[w]
			if !ok {
				order = append(order, w)
			}
			p := uint16(min(n, pgMaxPos))
			if len(ps) < pgMaxPositions && (len(ps) == 0 || ps[len(ps)-1].Position != p) {
				pos[w] = append(ps, pgtype.TSVectorPosition{Position: p})
			}
		}
		i = j
	}
	slices.Sort(order)
	tv := pgtype.TSVector{Lexemes: make([]pgtype.TSVectorLexeme, len(order)), Valid: true}
	for k, w := range order {
		tv.Lexemes[k] = pgtype.TSVectorLexeme{Word: w, Positions: pos[w]}
	}
	return tv, true
}

// pgTokens splits a run of letters and digits as PostgreSQL's parser
// does: whole, but for a run that starts as a number with an exponent
// (571e5d16), which is that number and then the rest.
func pgTokens(run string) []string {
	var out []string
	for run != "" {
		d := 0
		for d < len(run) && run[d] >= '0' && run[d] <= '9' {
			d++
		}
		if d == 0 || d+1 >= len(run) || run[d] != 'e' || run[d+1] < '0' || run[d+1] > '9' {
			return append(out, run)
		}
		e := d + 1
		for e < len(run) && run[e] >= '0' && run[e] <= '9' {
			e++
		}
		out = append(out, run[:e])
		run = run[e:]
	}
	return out
}

// isAlnum reports whether an ASCII byte is a letter or a digit.
func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
