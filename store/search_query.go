package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// parseSearch reads a query's search (nil when it has none), its since:
// counted back from the store's clock.
func (s *Store) parseSearch(q review.Query) (*search.Query, error) {
	if strings.TrimSpace(q.Search) == "" {
		return nil, nil
	}
	sq, err := search.Parse(q.Search, search.Options{Now: s.now(), Typing: q.Typing, Reviewer: q.Reviewer})
	if err != nil || sq.IsZero() {
		return nil, err
	}
	return &sq, nil
}

// SearchDeadline bounds the reads of one search, on every surface (the
// inbox, sift search, GET /search): past it the search stops with
// search.ErrTooSlow.
const SearchDeadline = 10 * time.Second

// searchDeadline gives a search's reads SearchDeadline. done, deferred
// with the search's error, ends it and says a search stopped by it as
// search.ErrTooSlow, in a ParseError naming the query (the API answers
// 400); a search its caller cancelled keeps its own error.
func searchDeadline(ctx context.Context, query string) (context.Context, func(*error)) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, SearchDeadline)
	return ctx, func(err *error) {
		if *err != nil && parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			*err = &search.ParseError{Token: query[:min(len(query), 32)], Err: search.ErrTooSlow}
		}
		cancel()
	}
}

// ftsPhrase is a term as an FTS5 phrase: its words in quotes (they are
// letters and digits only), a * after a prefix.
func ftsPhrase(t search.Term) string {
	p := `"` + strings.Join(t.Words, " ") + `"`
	if t.Prefix {
		p += " *"
	}
	return p
}

// ftsJoin joins terms as an FTS5 expression with op (AND, OR).
func ftsJoin(ts []search.Term, op string) string {
	ps := make([]string, len(ts))
	for i, t := range ts {
		ps[i] = ftsPhrase(t)
	}
	return strings.Join(ps, " "+op+" ")
}

// notInIndexSQL is true for a summary s whose search document does not
// match an FTS5 expression, its one argument: a search of exclusions
// only.
func notInIndexSQL(d dialect) string {
	return `(s.work_item_id, s.file_name) NOT IN (SELECT d.work_item_id, d.file_name
	FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid WHERE ` + d.match("search_fts") + `)`
}

// searchConds returns the conditions a search's filters put on a summary
// s, and their arguments; and, for a search of exclusions only, theirs.
// The words of a search are its read plan's (searchRead).
func searchConds(d dialect, sq *search.Query) ([]string, []any) {
	var conds []string
	var args []any
	if neg := sq.Negative(); len(sq.Positive()) == 0 && len(neg) > 0 {
		conds = append(conds, notInIndexSQL(d))
		args = append(args, ftsJoin(neg, "OR"))
	}
	for _, f := range sq.Filters {
		c, a := filterCond(d, f)
		if f.Not {
			c = "NOT COALESCE((" + c + "), FALSE)"
		}
		conds = append(conds, c)
		args = append(args, a...)
	}
	return conds, args
}

// filterCond is the condition of one field filter on a summary s.
func filterCond(d dialect, f search.Filter) (string, []any) {
	like := " " + d.like() + ` ? ESCAPE '\'`
	prefix := likeEscape(f.Value) + "%"
	const decided = `SELECT 1 FROM decision_latest x WHERE x.work_item_id = s.work_item_id AND x.file_name = s.file_name`
	switch f.Field {
	case search.FieldAgent:
		return `s.agent_kind` + like, []any{prefix}
	case search.FieldTool:
		return `EXISTS (SELECT 1 FROM session_filter t, ` + d.jsonValues("t.tool_names", "j") + `
			WHERE t.work_item_id = s.work_item_id AND t.file_name = s.file_name AND j.value` + like + `)`, []any{prefix}
	case search.FieldFlag:
		// flags holds the names separated by single spaces.
		return `(' ' || s.flags)` + like, []any{"% " + prefix}
	case search.FieldModel:
		return `s.model` + like, []any{"%" + prefix}
	case search.FieldOutcome:
		return "s.outcome = ?", []any{string(f.Outcome)}
	case search.FieldDecision:
		if f.Value == search.DecisionNone {
			return `NOT EXISTS (` + decided + ` AND x.turn_id = '' AND x.tool_call_id = '')`, nil
		}
		return `EXISTS (` + decided + ` AND x.decision` + like + `)`, []any{prefix}
	case search.FieldReviewer:
		return `EXISTS (SELECT 1 FROM review_decisions r WHERE r.work_item_id = s.work_item_id AND r.file_name = s.file_name
			AND r.reviewer_id` + like + `)`, []any{prefix}
	case search.FieldSince:
		return `s.activity_at >= ?`, []any{f.Since.UnixMilli()}
	case search.FieldCost:
		return `s.estimated_usd ` + string(f.Op) + ` ?`, []any{f.Cost}
	case search.FieldIs:
		// As the quick filters (whereConds): f and u.
		if f.Value == search.IsFlagged {
			return flaggedSQL, nil
		}
		return `s.review_state = ''`, nil
	}
	if c, a, ok := teamCond(f); ok {
		return c, a
	}
	return "1", nil
}

// likeEscape escapes LIKE's wildcards in a value, for ESCAPE '\'.
func likeEscape(v string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(v)
}

// maxMatches caps the matches Matches lists for one session.
const maxMatches = 500

// Matches returns the places in a session that a query's search matched,
// in the order of its indexed text (core/search.NewDoc: prompts, then
// turns, tool calls, errors, final message, flags, notes), each with a
// snippet of at most snippetBytes (0: the whole line) and the matched
// spans marked: where the inbox opens a session and n/N move, and the
// lines of `sift search`. A query without words or phrases has none; so
// does a session that is not indexed.
func (s *Store) Matches(ctx context.Context, k review.SessionKey, q review.Query, snippetBytes int) (_ []search.Match, err error) {
	sq, err := s.parseSearch(q)
	if err != nil || sq == nil || len(sq.Positive()) == 0 {
		return nil, err
	}
	ctx, done := searchDeadline(ctx, q.Search)
	defer done(&err)
	body, ps, err := s.d.matchedText(ctx, s, k, sq)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("matches %s: %w", k, wrapError(err))
	}
	hl := markMatches(body, sq)
	return highlighted(hl, ps, snippetBytes), nil
}

// matchedText is the session's document when it matches the search's
// words, on SQLite: the index keeps no text (migration 0017), so the
// document is read from search_text, and its matches marked by Matches.
func (sqliteDialect) matchedText(ctx context.Context, s *Store, k review.SessionKey, _ *search.Query) (string, []search.Part, error) {
	return s.d.readSearchText(ctx, s.r, k)
}

// highlighted reads the matches out of a document's text as highlight()
// marked it (each match between \x01 and \x02; the text has no other
// control characters), line by line: each part with a match gives one
// match per place it occurs at.
func highlighted(hl string, ps []search.Part, snippetBytes int) []search.Match {
	var out []search.Match
	for i, line := range strings.Split(hl, "\n") {
		if i >= len(ps) || !strings.ContainsRune(line, 1) {
			continue
		}
		text, marks := unmark(line)
		sep := len(line) - len(search.PartText(line))
		if sep > 0 {
			// The separator is never marked: it is no query's word.
			text = text[sep:]
			for j := range marks {
				marks[j][0] -= sep
				marks[j][1] -= sep
			}
		}
		out = append(out, search.MatchesAt(ps[i], text, marks, snippetBytes)...)
		if len(out) >= maxMatches {
			return out[:maxMatches]
		}
	}
	return out
}

// unmark removes highlight()'s marks from a line and returns their spans.
func unmark(line string) (string, [][2]int) {
	var b strings.Builder
	var marks [][2]int
	start := -1
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case 1:
			start = b.Len()
		case 2:
			if start >= 0 {
				marks = append(marks, [2]int{start, b.Len()})
				start = -1
			}
		default:
			b.WriteByte(line[i])
		}
	}
	return b.String(), marks
}
