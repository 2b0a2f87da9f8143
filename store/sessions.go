package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/textsafe"
)

// ListSessions returns one page of the sessions a query selects, in its
// order, each with its current session-level decision (Session.Decision,
// nil when undecided), and, when the query asks (Count), how many it
// selects in all: counted only for a full page, since a page with fewer
// rows is the last one. The lists of the summaries (tool calls, stalls,
// turns) are loaded only when the query asks for them (Full).
func (s *Store) ListSessions(ctx context.Context, q review.Query) (p review.Page, err error) {
	order, err := orderBy(q)
	if err != nil {
		return review.Page{}, fmt.Errorf("list sessions: %w", err)
	}
	sq, err := s.parseSearch(q)
	if err != nil {
		return p, err
	}
	if sq != nil {
		var done func(*error)
		ctx, done = searchDeadline(ctx, q.Search)
		defer done(&err)
	}
	// A list row has no path: opening a session (GetSession) reads it.
	cols := "s.brief_json, NULL, NULL, NULL, NULL, " + liveCols
	if q.Full {
		cols = "s.brief_json, s.tool_calls_json, s.stalls_json, s.turns_json, NULL, " + liveCols
	}
	var query string
	var args []any
	var rd *searchRead
	if sq != nil {
		// A search reads by a plan of its own (search_read.go).
		if rd, err = s.readSearch(ctx, q, sq); err != nil {
			return p, err
		}
		defer rd.release()
		if query, args, err = s.searchPage(ctx, rd, cols+decisionCols); err != nil {
			return p, fmt.Errorf("list sessions: %w", err)
		}
	} else {
		var cond string
		cond, args = where(s.d, q, nil)
		query = "SELECT " + cols + decisionCols + sessionFrom + cond + order
		if q.Limit > 0 || q.Offset > 0 {
			lim := q.Limit
			if lim <= 0 {
				lim = noLimit
			}
			query += " LIMIT ? OFFSET ?"
			args = append(args, lim, q.Offset)
		}
	}
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return p, fmt.Errorf("list sessions: %w", wrapError(err))
	}
	defer rows.Close()
	if q.Limit > 0 {
		p.Sessions = make([]review.Session, 0, min(q.Limit, 1024))
	}
	for rows.Next() {
		sess, err := scanSession(rows)
		if err != nil {
			return p, fmt.Errorf("list sessions: %w", err)
		}
		p.Sessions = append(p.Sessions, sess)
	}
	if err := rows.Err(); err != nil {
		return p, fmt.Errorf("list sessions: %w", wrapError(err))
	}
	rows.Close()
	if err := s.attachClaims(ctx, p.Sessions); err != nil {
		return p, fmt.Errorf("list sessions: %w", err)
	}
	if q.GroupByWorkItem {
		var wis []string
		for i := range p.Sessions {
			if wi := p.Sessions[i].WorkItemID; len(wis) == 0 || wis[len(wis)-1] != wi {
				wis = append(wis, wi)
			}
		}
		if p.Groups, err = s.groupTotals(ctx, q, wis); err != nil {
			return p, err
		}
	}
	if q.Count {
		if p.Total, err = s.total(ctx, q, rd, len(p.Sessions)); err != nil {
			return p, err
		}
	}
	if q.Full || q.Decisions {
		for i := range p.Sessions {
			if err := s.attachDecisions(ctx, &p.Sessions[i]); err != nil {
				return p, fmt.Errorf("list sessions: %w", err)
			}
		}
	}
	return p, nil
}

// total counts the sessions a query selects, given the n rows of its
// page (and its search's read, nil for none): a page with fewer rows than
// its limit is the last one.
func (s *Store) total(ctx context.Context, q review.Query, rd *searchRead, n int) (int, error) {
	if (q.Limit <= 0 || n < q.Limit) && (n > 0 || q.Offset == 0) {
		return q.Offset + n, nil
	}
	if rd != nil {
		return s.searchCount(ctx, rd)
	}
	return s.CountSessions(ctx, q)
}

// attachDecisions fills a session's current turn and tool-call decisions.
func (s *Store) attachDecisions(ctx context.Context, sess *review.Session) error {
	ds, err := s.LatestDecisions(ctx, sess.Key())
	if err != nil {
		return err
	}
	sess.Decisions = nil
	for _, d := range ds {
		if !d.OnSession() {
			sess.Decisions = append(sess.Decisions, d)
		}
	}
	return nil
}

// CountSessions returns how many sessions a query selects, ignoring its
// order, grouping and paging.
func (s *Store) CountSessions(ctx context.Context, q review.Query) (n int, err error) {
	sq, err := s.parseSearch(q)
	if err != nil {
		return 0, err
	}
	if sq != nil {
		var done func(*error)
		ctx, done = searchDeadline(ctx, q.Search)
		defer done(&err)
		rd, err := s.readSearch(ctx, q, sq)
		if err != nil {
			return 0, err
		}
		defer rd.release()
		return s.searchCount(ctx, rd)
	}
	where, args := where(s.d, q, nil)
	if err := s.r.QueryRowContext(ctx, "SELECT COUNT(*)"+countFrom+where, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count sessions: %w", wrapError(err))
	}
	return n, nil
}

// countCols count, of the sessions s a query selects, all of them, the
// flagged, the undecided and those left to review (both).
var countCols = "SELECT COUNT(*), " + countOf(flaggedSQL) + ", " + countOf("s.review_state = ''") + ", " +
	countOf(flaggedSQL+" AND s.review_state = ''")

// countsSQL counts the sessions, the flagged, the undecided ones and
// those left to review.
var countsSQL = countCols + countFrom

// Counts returns how many sessions a query selects, how many of them are
// flagged (in the sense of Query.Flagged), how many are undecided (their
// review state is "": no session-level decision, and not every flagged
// turn decided) and how many are both, left to review, in one read, so
// that the four are of one moment. Without filters the read is of the index summaries_by_triage
// alone, which holds every column it needs.
func (s *Store) Counts(ctx context.Context, q review.Query) (_ review.Counts, err error) {
	sq, err := s.parseSearch(q)
	if err != nil {
		return review.Counts{}, err
	}
	if sq != nil {
		var done func(*error)
		ctx, done = searchDeadline(ctx, q.Search)
		defer done(&err)
		rd, err := s.readSearch(ctx, q, sq)
		if err != nil {
			return review.Counts{}, err
		}
		defer rd.release()
		return s.searchCounts(ctx, rd)
	}
	where, args := where(s.d, q, nil)
	return scanCounts(s.r.QueryRowContext(ctx, countsSQL+where, args...))
}

// scanCounts reads the columns of countCols.
func scanCounts(row *sql.Row) (review.Counts, error) {
	var f, u, todo sql.NullInt64
	var c review.Counts
	if err := row.Scan(&c.Total, &f, &u, &todo); err != nil {
		return c, fmt.Errorf("count sessions: %w", wrapError(err))
	}
	c.Flagged, c.Undecided, c.ToReview = int(f.Int64), int(u.Int64), int(todo.Int64)
	return c, nil
}

// GetSession returns one session with its whole summary (tool calls,
// stalls and turns included), its current session-level decision, its
// stream file and the working directory its invocation recorded. A
// missing session is ErrNotFound.
func (s *Store) GetSession(ctx context.Context, k review.SessionKey) (review.Session, error) {
	row := s.r.QueryRowContext(ctx, "SELECT s.brief_json, s.tool_calls_json, s.stalls_json, s.turns_json, s.path, "+liveCols+
		decisionCols+sessionFrom+" WHERE s.work_item_id = ? AND s.file_name = ?", k.WorkItemID, k.FileName)
	sess, err := scanSession(row)
	if err != nil {
		return review.Session{}, fmt.Errorf("session %s: %w", k, wrapError(err))
	}
	if sess.RunArgs, err = s.InvocationArgs(ctx, k.WorkItemID, k.FileName); err != nil {
		return review.Session{}, err
	}
	if sess.Cwd, err = s.InvocationCwd(ctx, k.WorkItemID, k.FileName); err != nil {
		return review.Session{}, err
	}
	if sess.GitBefore, sess.GitAfter, err = s.InvocationGitHeads(ctx, k.WorkItemID, k.FileName); err != nil {
		return review.Session{}, err
	}
	if sess.Claim, err = s.ClaimOf(ctx, k); err != nil {
		return review.Session{}, err
	}
	return sess, nil
}

// liveCols are the columns a session's row carries besides its summary
// and decision: its review state, whether it runs (live.go), where its
// new lines start and its last activity.
const liveCols = "s.review_state, s.live, s.live_tool, s.live_wait, s.new_since, s.activity_at, " +
	"s.work_item_id, s.file_name, s.agent_kind, "

// scanSession reads the columns of ListSessions and GetSession: the
// summary's JSON parts, its path, its review state and its session-level
// decision.
func scanSession(sc interface{ Scan(...any) error }) (review.Session, error) {
	var brief, state string
	var calls, stalls, turns, path sql.NullString
	var sess review.Session
	var did, dsup sql.NullInt64
	var dwi, dfn, dturn, dtool, dkind, dnote, drev sql.NullString
	var dcreated, dseen, active sql.NullInt64
	var wi, fn, kind string
	if err := sc.Scan(&brief, &calls, &stalls, &turns, &path, &state, &sess.Live, &sess.LiveTool, &sess.LiveWait, &sess.NewSince,
		&active, &wi, &fn, &kind, &did, &dwi, &dfn, &dturn, &dtool, &dkind, &dnote, &drev, &dcreated, &dsup, &dseen); err != nil {
		return sess, err
	}
	sess.State = review.DecisionKind(state)
	sess.Path = path.String
	sum := &sess.Summary
	if err := json.Unmarshal([]byte(brief), sum); err != nil {
		unreadable(sum, wi, fn, kind, "brief_json", err)
	}
	for _, part := range []struct {
		col string
		s   sql.NullString
		dst any
	}{{"tool_calls_json", calls, &sum.ToolCalls}, {"stalls_json", stalls, &sum.Stalls}, {"turns_json", turns, &sum.Turns}} {
		if part.s.Valid {
			data, err := unpackJSON([]byte(part.s.String))
			if err == nil {
				err = json.Unmarshal(data, part.dst)
			}
			if err != nil {
				unreadable(sum, wi, fn, kind, part.col, err)
			}
		}
	}
	if active.Valid && (sum.StartedAt == nil || sum.StartedAt.IsZero()) {
		t := fromMs(active)
		sess.ActiveAt = &t
	}
	if did.Valid {
		sess.Decision = &review.Decision{ID: did.Int64, Session: sess.Key(), Kind: review.DecisionKind(dkind.String),
			Note: dnote.String, Reviewer: drev.String, CreatedAt: fromMs(dcreated), TurnID: dturn.String, ToolCallID: dtool.String,
			SeenLine: int(dseen.Int64)}
	}
	return sess, nil
}

// unreadable makes of a session whose stored row cannot be decoded (a
// teammate's newer sift, a damaged shared database) a row that stays in
// the inbox under its own key, its outcome unknown and its evidence saying
// which column could not be read and that `sift rebuild` reads its file
// again: one bad row never hides the others, nor itself.
func unreadable(sum *summary.Summary, wi, fn, kind, col string, err error) {
	*sum = summary.Summary{WorkItemID: wi, FileName: fn, AgentKind: kind, Outcome: summary.OutcomeUnknown,
		OutcomeEvidence: summary.Evidence{Sentence: "sift cannot read this session's stored row (" + col + ": " +
			textsafe.Inert(err.Error()) + "); sift rebuild reads its file again"},
		ToolCalls: []summary.ToolCall{}, Stalls: []summary.Stall{}, Turns: []summary.Turn{}}
}

// ResolveSession finds a session from a reference: `<workItemId>/<fileName>`
// exactly, or as sift shows it (review.SessionKey.Shown: redacted), else a
// prefix of exactly one session's file name. No match is ErrNotFound;
// several are ErrAmbiguous, with up to five named as shown.
func (s *Store) ResolveSession(ctx context.Context, ref string) (review.SessionKey, error) {
	if ref == "" {
		return review.SessionKey{}, fmt.Errorf("session %q: %w", ref, ErrNotFound)
	}
	if review.ShowsRedacted(ref) {
		return s.resolveShown(ctx, ref)
	}
	if wi, fn, ok := strings.Cut(ref, "/"); ok {
		var k review.SessionKey
		err := s.r.QueryRowContext(ctx, `SELECT work_item_id, file_name FROM agent_stream_summaries
			WHERE work_item_id = ? AND file_name = ?`, wi, fn).Scan(&k.WorkItemID, &k.FileName)
		if err == nil {
			return k, nil
		}
		if err != sql.ErrNoRows {
			return review.SessionKey{}, fmt.Errorf("session %q: %w", ref, wrapError(err))
		}
	}
	// file_name >= ref AND file_name < ref+max is a prefix range the index
	// answers, with no LIKE escaping.
	rows, err := s.r.QueryContext(ctx, `SELECT work_item_id, file_name FROM agent_stream_summaries
		WHERE file_name >= ? AND file_name < ? ORDER BY file_name, work_item_id LIMIT 6`, ref, ref+"\U0010FFFF")
	if err != nil {
		return review.SessionKey{}, fmt.Errorf("session %q: %w", ref, wrapError(err))
	}
	defer rows.Close()
	var found []review.SessionKey
	for rows.Next() {
		var k review.SessionKey
		if err := rows.Scan(&k.WorkItemID, &k.FileName); err != nil {
			return review.SessionKey{}, err
		}
		found = append(found, k)
	}
	if err := rows.Err(); err != nil {
		return review.SessionKey{}, fmt.Errorf("session %q: %w", ref, wrapError(err))
	}
	return oneOf(ref, found)
}

// oneOf is the session a reference found: the one key, else ErrNotFound
// or ErrAmbiguous naming up to five, as shown.
func oneOf(ref string, found []review.SessionKey) (review.SessionKey, error) {
	switch len(found) {
	case 0:
		return review.SessionKey{}, fmt.Errorf("session %q: %w", ref, ErrNotFound)
	case 1:
		return found[0], nil
	}
	var names []string
	for i, k := range found {
		if i == 5 {
			names = append(names, "…")
			break
		}
		names = append(names, k.String())
	}
	return review.SessionKey{}, fmt.Errorf("session %q matches %s: %w", ref, strings.Join(names, ", "), ErrAmbiguous)
}

// resolveShown finds the sessions whose key, as shown, is ref, or whose
// file name as shown starts with it. A key holding a secret is shown
// redacted, and a reviewer who copies it from the inbox or a list names
// the session by that. Rare, it reads every key.
func (s *Store) resolveShown(ctx context.Context, ref string) (review.SessionKey, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT work_item_id, file_name FROM agent_stream_summaries ORDER BY file_name, work_item_id`)
	if err != nil {
		return review.SessionKey{}, fmt.Errorf("session %q: %w", ref, wrapError(err))
	}
	defer rows.Close()
	var exact, prefix []review.SessionKey
	for rows.Next() {
		var k review.SessionKey
		if err := rows.Scan(&k.WorkItemID, &k.FileName); err != nil {
			return review.SessionKey{}, err
		}
		switch {
		case k.String() == ref:
			exact = append(exact, k)
		case strings.HasPrefix(k.Shown().FileName, ref) && len(prefix) < 6:
			prefix = append(prefix, k)
		}
	}
	if err := rows.Err(); err != nil {
		return review.SessionKey{}, fmt.Errorf("session %q: %w", ref, wrapError(err))
	}
	if len(exact) > 0 {
		return oneOf(ref, exact)
	}
	return oneOf(ref, prefix)
}

// ReviewEvents returns the review events of a session in stream order.
// They are kept 48 h (longer for flagged sessions, see retention.Policy); a
// session whose events were swept returns none and no error, a missing
// session ErrNotFound.
func (s *Store) ReviewEvents(ctx context.Context, key review.SessionKey) ([]summary.ReviewEvent, error) {
	var evs sql.NullString
	err := s.r.QueryRowContext(ctx, `SELECT e.events_json FROM agent_stream_summaries s
		LEFT JOIN review_events e ON e.work_item_id = s.work_item_id AND e.file_name = s.file_name
		WHERE s.work_item_id = ? AND s.file_name = ?`, key.WorkItemID, key.FileName).Scan(&evs)
	if err != nil {
		return nil, fmt.Errorf("review events %s: %w", key, wrapError(err))
	}
	if !evs.Valid {
		return nil, nil
	}
	var out []summary.ReviewEvent
	data, err := unpackJSON([]byte(evs.String))
	if err == nil {
		err = json.Unmarshal(data, &out)
	}
	if err != nil {
		return nil, fmt.Errorf("review events %s: decode: %w", key, err)
	}
	return out, nil
}
