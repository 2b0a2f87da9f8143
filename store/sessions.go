package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/summary"
)

// SortKey orders the inbox.
type SortKey string

// The inbox orders. Each is backed by an index, so that a page of a large
// store costs the page, not the store.
const (
	SortStarted   SortKey = "started"
	SortDuration  SortKey = "duration"
	SortCost      SortKey = "cost"
	SortStalls    SortKey = "stalls"
	SortErrors    SortKey = "errors"
	SortApprovals SortKey = "approvals"
	SortTokens    SortKey = "tokens"
)

// SortKeys lists the valid sort keys.
func SortKeys() []SortKey {
	return []SortKey{SortStarted, SortDuration, SortCost, SortStalls, SortErrors, SortApprovals, SortTokens}
}

// column returns the indexed column a key sorts on.
func (k SortKey) column() (string, bool) {
	switch k {
	case "", SortStarted:
		return "sort_started", true
	case SortDuration:
		return "total_duration_ms", true
	case SortCost:
		return "estimated_usd", true
	case SortStalls:
		return "stall_count", true
	case SortErrors:
		return "error_count", true
	case SortApprovals:
		return "approval_count", true
	case SortTokens:
		return "total_tokens", true
	}
	return "", false
}

// Query selects and orders sessions for the inbox. The zero Query lists
// every session, newest first.
type Query struct {
	// Sort is the order, descending unless Asc; empty means SortStarted.
	// Unknown values (null) sort as the smallest; SortStarted places a
	// session without a known start at its last activity.
	Sort SortKey
	Asc  bool
	// Flagged keeps flagged sessions: those with a flag, or with an open
	// needs_followup decision on the session or one of its turns or tool
	// calls.
	Flagged bool
	// Undecided keeps sessions with no session-level decision.
	Undecided bool
	// Agent and WorkItem keep one agent kind and one work item.
	Agent    string
	WorkItem string
	// Since keeps sessions active at or after this time.
	Since time.Time
	// Limit caps the rows (0: no cap); Offset skips rows.
	Limit, Offset int
	// Text keeps sessions whose work item, file name, model, harness
	// session id or final message contains it (case-insensitive for ASCII).
	Text string
	// Full also loads tool calls, stalls and turns; without it those are
	// nil in the returned summaries. Full implies Decisions.
	Full bool
	// Decisions fills each summary's current turn and tool-call decisions
	// (Summary.Decisions), one query per row.
	Decisions bool
}

// SessionKey names a session.
type SessionKey struct {
	WorkItemID string
	FileName   string
}

// String returns the `<workItemId>/<fileName>` form.
func (k SessionKey) String() string { return k.WorkItemID + "/" + k.FileName }

// where builds the WHERE clause of a query.
func (q Query) where() (string, []any) {
	var conds []string
	var args []any
	if q.Flagged {
		conds = append(conds, `(s.flagged = 1 OR EXISTS (SELECT 1 FROM decision_latest f
			WHERE f.decision = 'needs_followup' AND f.work_item_id = s.work_item_id AND f.file_name = s.file_name))`)
	}
	if q.Undecided {
		conds = append(conds, `l.decision_id IS NULL`)
	}
	if q.Agent != "" {
		conds = append(conds, "s.agent_kind = ?")
		args = append(args, q.Agent)
	}
	if q.WorkItem != "" {
		conds = append(conds, "s.work_item_id = ?")
		args = append(args, q.WorkItem)
	}
	if !q.Since.IsZero() {
		conds = append(conds, "s.activity_at >= ?")
		args = append(args, q.Since.UnixMilli())
	}
	if q.Text != "" {
		like := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q.Text) + "%"
		conds = append(conds, `(s.work_item_id LIKE ? ESCAPE '\' OR s.file_name LIKE ? ESCAPE '\'
			OR s.model LIKE ? ESCAPE '\' OR s.session_id LIKE ? ESCAPE '\' OR s.final_assistant_message LIKE ? ESCAPE '\')`)
		args = append(args, like, like, like, like, like)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// sessionFrom joins each summary to its session-level decision.
const sessionFrom = ` FROM agent_stream_summaries s
	LEFT JOIN decision_latest l ON l.work_item_id = s.work_item_id AND l.file_name = s.file_name
		AND l.turn_id = '' AND l.tool_call_id = ''
	LEFT JOIN review_decisions d ON d.id = l.decision_id`

// ListSessions returns the sessions a query selects, in its order, each
// with its current session-level decision (Summary.Decision, nil when
// undecided).
func (s *Store) ListSessions(ctx context.Context, q Query) ([]summary.Summary, error) {
	col, ok := q.Sort.column()
	if !ok {
		return nil, fmt.Errorf("list sessions: unknown sort %q", q.Sort)
	}
	dir := " DESC"
	if q.Asc {
		dir = " ASC"
	}
	where, args := q.where()
	cols := "s.brief_json, NULL, NULL, NULL, "
	if q.Full {
		cols = "s.brief_json, s.tool_calls_json, s.stalls_json, s.turns_json, "
	}
	query := "SELECT " + cols + decisionCols + sessionFrom + where +
		" ORDER BY s." + col + dir + ", s.work_item_id" + dir + ", s.file_name" + dir
	if q.Limit > 0 || q.Offset > 0 {
		lim := q.Limit
		if lim <= 0 {
			lim = -1
		}
		query += " LIMIT ? OFFSET ?"
		args = append(args, lim, q.Offset)
	}
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", wrapError(err))
	}
	defer rows.Close()
	var out []summary.Summary
	for rows.Next() {
		sum, err := scanSummary(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, *sum)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", wrapError(err))
	}
	if q.Full || q.Decisions {
		for i := range out {
			if err := s.attachDecisions(ctx, &out[i]); err != nil {
				return nil, fmt.Errorf("list sessions: %w", err)
			}
		}
	}
	return out, nil
}

// attachDecisions fills a full summary's current turn and tool-call
// decisions.
func (s *Store) attachDecisions(ctx context.Context, sum *summary.Summary) error {
	ds, err := s.LatestDecisions(ctx, sum.WorkItemID, sum.FileName)
	if err != nil {
		return err
	}
	sum.Decisions = nil
	for _, d := range ds {
		if d.TurnID != "" || d.ToolCallID != "" {
			sum.Decisions = append(sum.Decisions, *d.Summary())
		}
	}
	return nil
}

// CountSessions returns how many sessions a query selects, ignoring its
// sort, limit and offset.
func (s *Store) CountSessions(ctx context.Context, q Query) (int, error) {
	where, args := q.where()
	var n int
	from := " FROM agent_stream_summaries s"
	if q.Undecided {
		from = sessionFrom
	}
	if err := s.r.QueryRowContext(ctx, "SELECT COUNT(*)"+from+where, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count sessions: %w", wrapError(err))
	}
	return n, nil
}

// GetSummary returns the full summary of one session (tool calls, stalls
// and turns included) with its current session-level decision, in one
// read. A missing session is ErrNotFound.
func (s *Store) GetSummary(ctx context.Context, workItemID, fileName string) (*summary.Summary, error) {
	row := s.r.QueryRowContext(ctx, "SELECT s.brief_json, s.tool_calls_json, s.stalls_json, s.turns_json, "+
		decisionCols+sessionFrom+" WHERE s.work_item_id = ? AND s.file_name = ?", workItemID, fileName)
	sum, err := scanSummary(row)
	if err != nil {
		return nil, fmt.Errorf("summary %s/%s: %w", workItemID, fileName, wrapError(err))
	}
	return sum, nil
}

// scanSummary reads the columns of ListSessions and GetSummary.
func scanSummary(sc interface{ Scan(...any) error }) (*summary.Summary, error) {
	var brief string
	var calls, stalls, turns sql.NullString
	var did sql.NullInt64
	var dwi, dfn, dturn, dtool, dkind, dnote, drev sql.NullString
	var dcreated sql.NullInt64
	if err := sc.Scan(&brief, &calls, &stalls, &turns, &did, &dwi, &dfn, &dturn, &dtool, &dkind, &dnote, &drev, &dcreated); err != nil {
		return nil, err
	}
	sum := new(summary.Summary)
	if err := json.Unmarshal([]byte(brief), sum); err != nil {
		return nil, fmt.Errorf("decode summary: %w", err)
	}
	for _, part := range []struct {
		s   sql.NullString
		dst any
	}{{calls, &sum.ToolCalls}, {stalls, &sum.Stalls}, {turns, &sum.Turns}} {
		if part.s.Valid {
			data, err := unpackJSON([]byte(part.s.String))
			if err == nil {
				err = json.Unmarshal(data, part.dst)
			}
			if err != nil {
				return nil, fmt.Errorf("decode summary: %w", err)
			}
		}
	}
	sum.Decision = nil
	if did.Valid {
		d := Decision{Decision: DecisionKind(dkind.String), Note: dnote.String, ReviewerID: drev.String,
			CreatedAt: fromMs(dcreated), TurnID: dturn.String, ToolCallID: dtool.String}
		sum.Decision = d.Summary()
	}
	return sum, nil
}

// ResolveSession finds a session from a reference: `<workItemId>/<fileName>`
// exactly, else a prefix of exactly one session's file name. No match is
// ErrNotFound; several are ErrAmbiguous, with up to five named.
func (s *Store) ResolveSession(ctx context.Context, ref string) (SessionKey, error) {
	if ref == "" {
		return SessionKey{}, fmt.Errorf("session %q: %w", ref, ErrNotFound)
	}
	if wi, fn, ok := strings.Cut(ref, "/"); ok {
		var k SessionKey
		err := s.r.QueryRowContext(ctx, `SELECT work_item_id, file_name FROM agent_stream_summaries
			WHERE work_item_id = ? AND file_name = ?`, wi, fn).Scan(&k.WorkItemID, &k.FileName)
		if err == nil {
			return k, nil
		}
		if err != sql.ErrNoRows {
			return SessionKey{}, fmt.Errorf("session %q: %w", ref, wrapError(err))
		}
	}
	// file_name >= ref AND file_name < ref+max is a prefix range the index
	// answers, with no LIKE escaping.
	rows, err := s.r.QueryContext(ctx, `SELECT work_item_id, file_name FROM agent_stream_summaries
		WHERE file_name >= ? AND file_name < ? ORDER BY file_name, work_item_id LIMIT 6`, ref, ref+"\U0010FFFF")
	if err != nil {
		return SessionKey{}, fmt.Errorf("session %q: %w", ref, wrapError(err))
	}
	defer rows.Close()
	var found []SessionKey
	for rows.Next() {
		var k SessionKey
		if err := rows.Scan(&k.WorkItemID, &k.FileName); err != nil {
			return SessionKey{}, err
		}
		found = append(found, k)
	}
	if err := rows.Err(); err != nil {
		return SessionKey{}, fmt.Errorf("session %q: %w", ref, wrapError(err))
	}
	switch len(found) {
	case 0:
		return SessionKey{}, fmt.Errorf("session %q: %w", ref, ErrNotFound)
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
	return SessionKey{}, fmt.Errorf("session %q matches %s: %w", ref, strings.Join(names, ", "), ErrAmbiguous)
}

// ReviewEvents returns the review events of a session in stream order.
// They are kept 48 h (longer for flagged sessions, see Retention); a
// session whose events were swept returns none and no error, a missing
// session ErrNotFound.
func (s *Store) ReviewEvents(ctx context.Context, key SessionKey) ([]summary.ReviewEvent, error) {
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
