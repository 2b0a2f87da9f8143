package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// A search is read one of three ways (readPlan), chosen by how many
// sessions its words match, which the full-text index counts at once:
//
//   - few matches: from each match to its session, and the matches sorted;
//   - many: along the index of the query's order, each session checked
//     against the set of matches, until the page is full;
//   - most (or no words): along that index, each session's document looked
//     up in the full-text index, which is cheaper than making the set.
//
// On SQLite the set is gathered in Go as the matches are counted
// (search_set.go), so a search with many matches is always read along
// the order, each session looked up in the set: the index is read once.
//
// Every plan reads a session's sort and filter columns from the covering
// index summaries_search (migration 0008), never the summary's row, which
// is large; only the page's rows are read whole. The thresholds were
// measured on the search benchmark corpus (BenchmarkSearch).
type readPlan uint8

const (
	// planAuto is no plan: the store chooses (Store.forcePlan).
	planAuto readPlan = iota
	fromMatches
	alongSet
	alongProbe
	along
)

const (
	// fewMatches is the most matches read from the matches.
	fewMatches = 1000
	// fewFilteredMatches is the most read from the matches when the
	// query filters them too. A filter is often bound up with the order
	// (the stalled sessions are far down the triage order): the sessions
	// it keeps are not spread along it, and a walk along it to fill a
	// page went through most of them (flag:stall with a common word: 43
	// ms of CPU along the order, 10 from its 2,824 matches).
	fewFilteredMatches = 3000
	// mostMatches is the share of the sessions (1/mostMatches) from
	// which the matches are probed rather than gathered.
	mostMatches = 4
)

// searchRead is a query with a search, as the store reads it.
type searchRead struct {
	// d is the store's dialect.
	d dialect
	q review.Query
	// expr is the FTS5 expression of the search's words (and exclusions),
	// "" when it has none; n is how many documents it matches that pass
	// the doc conditions.
	expr string
	n    int
	// conds are the query's conditions on a summary s (read from
	// summaries_search) and its decision pointer l: its filters and the
	// search's.
	conds []string
	args  []any
	// split is set when the conditions are also split in two (SQLite):
	// docConds, the static filters on the session's document sd (its copy
	// of the summary's columns, migration 0017), and restConds, the
	// others on s and l. Together they select what conds do.
	split               bool
	docConds, restConds []string
	docArgs, restArgs   []any
	// tagTerms are the static filters the full-text index answers with
	// the search's words (SQLite, a search with words): each an FTS5
	// operator and a phrase of the documents' tags.
	tagTerms []string
	// set is the handle of the set of the documents n counts (SQLite, a
	// search with words; search_set.go), 0 when there is none. They
	// pass the doc conditions.
	set int64
}

// release lets go of what reading the search held.
func (r *searchRead) release() {
	if r != nil && r.set != 0 {
		releaseMatchSet(r.set)
	}
}

// readSearch prepares a query's search (sq, not nil) for reading: its
// conditions, and how many documents its words match.
func (s *Store) readSearch(ctx context.Context, q review.Query, sq *search.Query) (*searchRead, error) {
	r := &searchRead{d: s.d, q: q}
	r.conds, r.args = whereConds(s.d, q, sq)
	if err := s.d.countMatches(ctx, s, r, sq); err != nil {
		return nil, fmt.Errorf("search: %w", wrapError(err))
	}
	return r, nil
}

// matchExpr sets the FTS5 expression of a search's words (r.expr), "" when
// it has none, with the static filters the index answers (r.tagTerms).
func (r *searchRead) matchExpr(sq *search.Query) {
	pos := sq.Positive()
	if len(pos) == 0 {
		return
	}
	r.expr = ftsJoin(pos, "AND")
	for _, t := range sq.Negative() {
		r.expr += " NOT " + ftsPhrase(t)
	}
	r.expr += strings.Join(r.tagTerms, "")
}

// matchCountSQL counts the documents the search's words match with the
// aggregate count, which pass the doc conditions (if any), and its
// arguments.
func (r *searchRead) matchCountSQL(count string) (string, []any) {
	query, args := `SELECT `+count+` FROM search_fts WHERE `+r.d.match("search_fts"), []any{r.expr}
	if len(r.docConds) > 0 {
		// The static filters are read from the documents' rows, looked
		// up by id: a common word and a selective filter (flag:stall)
		// are counted without a summary.
		query = `SELECT ` + count + ` FROM search_fts ` + r.d.orderedJoin() + ` search_docs sd ON sd.id = search_fts.rowid
			WHERE ` + r.d.match("search_fts") + ` AND ` + strings.Join(r.docConds, " AND ")
		args = append(args, r.docArgs...)
	}
	return query, args
}

// countMatches is readSearch's count on SQLite: the conditions are split
// (splitConds), and the matches' set is gathered as they are counted
// (search_set.go).
func (sqliteDialect) countMatches(ctx context.Context, s *Store, r *searchRead, sq *search.Query) error {
	r.splitConds(sq)
	if r.matchExpr(sq); r.expr == "" {
		return nil
	}
	count := "COALESCE(sift_match_set(?, search_fts.rowid), 0)"
	query, args := r.matchCountSQL(count)
	var err error
	r.set, r.n, err = gatherMatchSet(ctx, s.r, query, args...)
	if err == nil && r.n < 0 {
		// Ids past a set's bound: counted, and read by the plans that
		// need no set.
		err = s.r.QueryRowContext(ctx, strings.Replace(query, count, "COUNT(*)", 1), args...).Scan(&r.n)
	}
	return err
}

// The columns of its summary a search document's row copies (migration
// 0017), and their update from the summary in an upsert.
const (
	docFilterCols = "agent_kind, flags, outcome, activity_at, estimated_usd"
	docFilterSet  = "agent_kind = excluded.agent_kind, flags = excluded.flags, outcome = excluded.outcome, " +
		"activity_at = excluded.activity_at, estimated_usd = excluded.estimated_usd"
)

// docFilterColumn is the column of search_docs a filter reads, "" for a
// filter that reads none (its value is not a copy: decisions, tools,
// models).
func docFilterColumn(f search.Field) string {
	switch f {
	case search.FieldAgent:
		return "agent_kind"
	case search.FieldFlag:
		return "flags"
	case search.FieldOutcome:
		return "outcome"
	case search.FieldSince:
		return "activity_at"
	case search.FieldCost:
		return "estimated_usd"
	}
	return ""
}

// splitConds splits the query's conditions into those on the document's
// row (the static filters, each the condition filterCond gives, read from
// sd) and the rest.
func (r *searchRead) splitConds(sq *search.Query) {
	rest := *sq
	rest.Filters = nil
	words := len(sq.Positive()) > 0
	for _, f := range sq.Filters {
		if t, ok := tagTerm(f); ok && words {
			r.tagTerms = append(r.tagTerms, t)
			continue
		}
		col := docFilterColumn(f.Field)
		c, a := filterCond(r.d, f)
		if col == "" || strings.Count(c, "s."+col) != 1 {
			rest.Filters = append(rest.Filters, f)
			continue
		}
		c = strings.Replace(c, "s."+col, "sd."+col, 1)
		if f.Not {
			c = "NOT COALESCE((" + c + "), FALSE)"
		}
		r.docConds = append(r.docConds, c)
		r.docArgs = append(r.docArgs, a...)
	}
	r.restConds, r.restArgs = whereConds(r.d, r.q, &rest)
	r.split = true
}

// tagTerm returns a static filter as an FTS5 operator and phrase of the
// documents' tags (search_text.go), when its condition (filterCond) and
// the tags select the same sessions: agent: (a prefix of the agent),
// flag: (of a flag's name; a value with a space, which the condition
// matches across two names, is not) and outcome:.
func tagTerm(f search.Filter) (string, bool) {
	var tag []byte
	prefix := " *"
	switch f.Field {
	case search.FieldAgent:
		tag = appendTag(nil, tagAgent, f.Value)
	case search.FieldFlag:
		if strings.Contains(f.Value, " ") {
			return "", false
		}
		tag = appendTag(nil, tagFlag, f.Value)
	case search.FieldOutcome:
		tag, prefix = appendTag(nil, tagOutcome, string(f.Outcome)), ""
	default:
		return "", false
	}
	op := " AND "
	if f.Not {
		op = " NOT "
	}
	return op + `tags : "` + string(tag) + `"` + prefix, true
}

// matchConds are the conditions of a read from the matches, with their
// arguments: the doc conditions first, checked before a summary is
// looked up.
func (r *searchRead) matchConds() ([]string, []any) {
	if !r.split {
		return r.conds, r.args
	}
	return append(r.docConds[:len(r.docConds):len(r.docConds)], r.restConds...),
		append(r.docArgs[:len(r.docArgs):len(r.docArgs)], r.restArgs...)
}

// summaryConds are the conditions that a summary, not a document's row,
// must pass, beyond those r.n counts.
func (r *searchRead) summaryConds() []string {
	if !r.split || r.expr == "" {
		return r.conds
	}
	return r.restConds
}

// plan chooses how to read a page.
func (s *Store) plan(ctx context.Context, r *searchRead) (readPlan, error) {
	switch {
	case r.expr == "":
		return along, nil
	case r.q.GroupByWorkItem:
		// No index holds the order: the matches are sorted.
		return fromMatches, nil
	case s.forcePlan != planAuto:
		return s.forcePlan, nil
	case r.n <= fewMatches, r.n <= fewFilteredMatches && len(r.conds) > 0:
		return fromMatches, nil
	}
	if r.set != 0 {
		// The set is at hand: looking a session up in it costs less
		// than a probe.
		return alongSet, nil
	}
	var docs int
	if err := s.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM search_docs`).Scan(&docs); err != nil {
		return 0, fmt.Errorf("search: %w", wrapError(err))
	}
	// A probe runs the expression once per session it looks at: a prefix
	// (the word being typed) expands to every word it starts each time,
	// which took minutes for "tes" on 100,000 sessions. The set of its
	// matches is read once instead.
	if r.n*mostMatches >= docs && !strings.Contains(r.expr, "*") {
		return alongProbe, nil
	}
	return alongSet, nil
}

// coveringJoin reads the summary s of a session row a from the covering
// index.
func coveringJoin(d dialect, a string) string {
	return " " + d.orderedJoin() + " agent_stream_summaries s" + d.indexedBy("summaries_search") + " ON s.work_item_id = " + a +
		".work_item_id AND s.file_name = " + a + ".file_name"
}

// from returns the FROM and WHERE clauses of a plan, with their
// arguments, and the alias of the summary its order is read from.
func (r *searchRead) from(p readPlan) (string, []any, string) {
	conds, args := r.conds, r.args
	var b strings.Builder
	order := "o"
	// key is the alias the session's document is joined on.
	key := "s"
	walk := p == alongSet || p == alongProbe
	needS := len(conds) > 0
	if walk && r.split {
		// Along the order the tags are in the set of matches, and the
		// doc conditions are read from the document's row, joined for
		// the set anyway (or were, when the set was gathered): the
		// summary's covering index is read only for the other
		// conditions, if any.
		conds = r.restConds[:len(r.restConds):len(r.restConds)]
		args = r.restArgs[:len(r.restArgs):len(r.restArgs)]
		if !(p == alongSet && r.set != 0) {
			conds = append(conds, r.docConds...)
			args = append(args, r.docArgs...)
		}
		needS = len(r.restConds) > 0
	}
	switch {
	case p == fromMatches:
		b.WriteString(" FROM search_fts " + r.d.orderedJoin() + " search_docs sd ON sd.id = search_fts.rowid" + coveringJoin(r.d, "sd"))
		conds, args = r.matchConds()
		conds = append([]string{r.d.match("search_fts")}, conds...)
		args = append([]any{r.expr}, args...)
		order = "s"
	case r.q.GroupByWorkItem:
		// No index holds the order: every session is sorted.
		b.WriteString(" FROM agent_stream_summaries s" + r.d.indexedBy("summaries_search"))
		order = "s"
	case walk && !needS:
		b.WriteString(" FROM agent_stream_summaries o" + r.d.indexedBy(sortIndex(r.q.Sort)))
		key = "o"
	default:
		b.WriteString(" FROM agent_stream_summaries o" + r.d.indexedBy(sortIndex(r.q.Sort)) + coveringJoin(r.d, "o"))
	}
	docJoin := " " + r.d.orderedJoin() + " search_docs sd ON sd.work_item_id = " + key + ".work_item_id AND sd.file_name = " + key + ".file_name"
	switch p {
	case alongSet:
		b.WriteString(docJoin)
		if r.set != 0 {
			// The doc conditions were checked as the set was gathered.
			conds = append(conds[:len(conds):len(conds)], "sift_in_match_set(?, sd.id)")
			args = append(args[:len(args):len(args)], r.set)
			break
		}
		// The + keeps the set from driving the lookup of sd: each
		// session would be looked up once per match.
		// The match is checked after the filters, which read the row
		// at hand: a selective filter spares most checks.
		conds = append(conds[:len(conds):len(conds)], "+sd.id IN (SELECT rowid FROM search_fts WHERE "+r.d.match("search_fts")+")")
		args = append(args[:len(args):len(args)], r.expr)
	case alongProbe:
		b.WriteString(docJoin)
		// Probed after the filters: a probe costs the expression's run.
		conds = append(conds[:len(conds):len(conds)], "EXISTS (SELECT 1 FROM search_fts WHERE "+r.d.match("search_fts")+" AND search_fts.rowid = sd.id)")
		args = append(args[:len(args):len(args)], r.expr)
	}
	if len(conds) > 0 {
		b.WriteString(" WHERE " + strings.Join(conds, " AND "))
	}
	return b.String(), args, order
}

// page returns the SELECT of a page of the query's sessions, the columns
// cols (of the summary s and its decision d) of each, in its order: the
// keys of the page, read by the plan, then their rows.
func (s *Store) searchPage(ctx context.Context, r *searchRead, cols string) (string, []any, error) {
	p, err := s.plan(ctx, r)
	if err != nil {
		return "", nil, err
	}
	from, args, a := r.from(p)
	keyOrder, err := orderByOf(r.q, a)
	if err != nil {
		return "", nil, err
	}
	order, _ := orderBy(r.q)
	keys := "SELECT " + a + ".work_item_id, " + a + ".file_name" + from + keyOrder
	if r.q.Limit > 0 || r.q.Offset > 0 {
		lim := r.q.Limit
		if lim <= 0 {
			lim = noLimit
		}
		keys += " LIMIT ? OFFSET ?"
		args = append(args, lim, r.q.Offset)
	}
	return "SELECT " + cols + " FROM (" + keys + ") p " + s.d.orderedJoin() + " agent_stream_summaries s ON s.work_item_id = p.work_item_id" +
		" AND s.file_name = p.file_name" + decidedJoin + "\n\tLEFT JOIN review_decisions d ON d.id = l.decision_id" + order, args, nil
}

// count counts the sessions of a query with a search: the matches of its
// words when it has nothing else to check.
func (s *Store) searchCount(ctx context.Context, r *searchRead) (int, error) {
	if r.expr != "" && (len(r.summaryConds()) == 0 || r.n == 0) {
		return r.n, nil
	}
	var n int
	from, args := r.countFrom()
	if err := s.r.QueryRowContext(ctx, "SELECT COUNT(*)"+from, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count sessions: %w", wrapError(err))
	}
	return n, nil
}

// countFrom is the FROM and WHERE of a count: from the matches, or along
// the covering index for a search without words.
func (r *searchRead) countFrom() (string, []any) {
	plan := along
	switch {
	case r.expr != "" && (len(r.summaryConds()) == 0 || r.n <= fewMatches):
		from, args, _ := r.from(fromMatches)
		return from, args
	case r.expr != "":
		// Many matches and filters to check: the filters first, along
		// the covering index, then whether each session left matched
		// (its set read once). From the matches, a common word and a
		// selective filter (flag:stall) joined every match: 0.5 s on
		// 100,000 sessions.
		plan = alongSet
	}
	q := r.q
	q.GroupByWorkItem = true // along the covering index, in no order
	rr := *r
	rr.q = q
	from, args, _ := rr.from(plan)
	return from, args
}

// searchCounts counts the sessions of a query with a search, the flagged
// and the undecided ones, in one read.
func (s *Store) searchCounts(ctx context.Context, r *searchRead) (review.Counts, error) {
	var c review.Counts
	if r.expr != "" && r.n == 0 {
		return c, nil
	}
	from, args := r.countFrom()
	return scanCounts(s.r.QueryRowContext(ctx, countCols+from, args...))
}
