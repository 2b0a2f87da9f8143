package tui

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"
)

// ErrNotFound is returned by MemStore for an unknown session.
var ErrNotFound = errors.New("session not found")

// MemStore is a Store held in memory. Tests use it, and it defines the
// ordering and filtering contract the SQLite adapter follows.
type MemStore struct {
	mu        sync.Mutex
	sessions  []Session
	decisions []Decision
	now       func() time.Time
}

var _ Store = (*MemStore)(nil)

// NewMemStore returns a store holding the given sessions.
func NewMemStore(sessions []Session) *MemStore {
	return &MemStore{sessions: slices.Clone(sessions), now: time.Now}
}

// Add appends sessions, as an import would.
func (m *MemStore) Add(sessions ...Session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sessions = append(m.sessions, sessions...)
}

// ListSessions implements Store.
func (m *MemStore) ListSessions(_ context.Context, q Query) (Page, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var p Page
	rows := make([]*Session, 0, len(m.sessions))
	for i := range m.sessions {
		s := &m.sessions[i]
		if !m.matches(s, q) {
			continue
		}
		rows = append(rows, s)
	}
	p.Total = len(rows)
	flagged := make(map[*Session]bool, len(rows))
	for _, s := range rows {
		flagged[s] = m.flagged(s)
	}
	slices.SortStableFunc(rows, func(a, b *Session) int { return CompareFlagged(a, b, q, flagged[a], flagged[b]) })
	lo := min(max(q.Offset, 0), len(rows))
	hi := len(rows)
	if q.Limit > 0 {
		hi = min(lo+q.Limit, len(rows))
	}
	for _, s := range rows[lo:hi] {
		p.Sessions = append(p.Sessions, *s)
	}
	return p, nil
}

// Counts implements Store.
func (m *MemStore) Counts(_ context.Context, q Query) (flagged, undecided int, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.sessions {
		s := &m.sessions[i]
		if !m.matches(s, q) {
			continue
		}
		if m.flagged(s) {
			flagged++
		}
		if s.Decision == nil {
			undecided++
		}
	}
	return flagged, undecided, nil
}

// GetSession implements Store.
func (m *MemStore) GetSession(_ context.Context, k SessionKey) (Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.sessions {
		if s.Key() == k {
			return s, nil
		}
	}
	return Session{}, ErrNotFound
}

// Decide implements Store. A session-level decision becomes the session's
// latest decision.
func (m *MemStore) Decide(_ context.Context, d Decision) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.sessions, func(s Session) bool { return s.Key() == d.Session })
	if i < 0 {
		return ErrNotFound
	}
	if d.CreatedAt.IsZero() {
		d.CreatedAt = m.now()
	}
	m.decisions = append(m.decisions, d)
	if d.TurnID == "" && d.ToolCallID == "" {
		m.sessions[i].Decision = summaryDecision(d)
	}
	return nil
}

// Decisions implements Store.
func (m *MemStore) Decisions(_ context.Context, k SessionKey) ([]Decision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Decision
	for _, d := range m.decisions {
		if d.Session == k {
			out = append(out, d)
		}
	}
	return out, nil
}

// matches is Matches with the store's sense of flagged.
func (m *MemStore) matches(s *Session, q Query) bool {
	if q.FlaggedOnly && !m.flagged(s) {
		return false
	}
	q.FlaggedOnly = false
	return Matches(s, q)
}

// flagged reports whether a session is flagged as the store says: by its
// summary, or by an open needs_followup decision on it, one of its turns
// or one of its tool calls.
func (m *MemStore) flagged(s *Session) bool {
	if s.Flagged {
		return true
	}
	latest := map[[2]string]string{}
	for _, d := range m.decisions {
		if d.Session == s.Key() {
			latest[[2]string{d.TurnID, d.ToolCallID}] = d.Decision
		}
	}
	for _, d := range latest {
		if d == DecisionFollowup {
			return true
		}
	}
	return false
}

// Matches reports whether a session passes a query's filters, with the
// summary's sense of flagged.
func Matches(s *Session, q Query) bool {
	if q.FlaggedOnly && !s.Flagged {
		return false
	}
	if q.UndecidedOnly && s.Decision != nil {
		return false
	}
	if q.Agent != "" && s.AgentKind != q.Agent {
		return false
	}
	if q.Filter == "" {
		return true
	}
	return FilterMatches(s, q.Filter)
}

// FilterMatches reports whether a session passes the `/` filter: the
// pattern is fuzzy-matched (its characters in order) against the agent,
// the work item and phase, and each tool name, and found as a plain
// substring of the final message; all ignoring case. Matching the long
// final message fuzzily would match nearly anything.
func FilterMatches(s *Session, pattern string) bool {
	if FuzzyMatch(pattern, s.AgentKind) || FuzzyMatch(pattern, phaseLabel(&s.Summary)) {
		return true
	}
	for i := range s.ToolCalls {
		if FuzzyMatch(pattern, s.ToolCalls[i].Name) {
			return true
		}
	}
	return s.FinalAssistantMessage != nil &&
		strings.Contains(strings.ToLower(*s.FinalAssistantMessage), strings.ToLower(pattern))
}

// FuzzyMatch reports whether the characters of pattern appear in text in
// order, ignoring case and spaces in the pattern.
func FuzzyMatch(pattern, text string) bool {
	text = strings.ToLower(text)
	for _, r := range strings.ToLower(pattern) {
		if r == ' ' {
			continue
		}
		i := strings.IndexRune(text, r)
		if i < 0 {
			return false
		}
		text = text[i+len(string(r)):]
	}
	return true
}

// Compare orders two sessions for a query. Unknown values are the
// smallest; ties fall back to the start time, newest first, then the key,
// so pages are stable. The triage order takes flagged in the summary's
// sense; CompareFlagged takes it from the caller.
func Compare(a, b *Session, q Query) int {
	return CompareFlagged(a, b, q, a.Flagged, b.Flagged)
}

// CompareFlagged is Compare with whether each session is flagged given: a
// store also flags a session with an open needs_followup decision.
func CompareFlagged(a, b *Session, q Query, aFlagged, bFlagged bool) int {
	if q.GroupByWorkItem {
		if c := cmp.Compare(a.WorkItemID, b.WorkItemID); c != 0 {
			return c
		}
	}
	var c int
	if q.Sort == SortTriage || q.Sort == "" {
		c = cmp.Compare(triageRank(b, bFlagged), triageRank(a, aFlagged))
		if c == 0 {
			c = compareOpt(costOf(a), costOf(b), true)
		}
	} else {
		c = compareOpt(sortValue(a, q.Sort), sortValue(b, q.Sort), q.Desc)
	}
	if c != 0 {
		return c
	}
	if c = compareOpt(startOf(a), startOf(b), true); c != 0 {
		return c
	}
	return cmp.Compare(a.Key().String(), b.Key().String())
}

// triageRank is 1 for flagged and undecided sessions, the first segment
// of the triage order, and 0 for the rest.
func triageRank(s *Session, flagged bool) int {
	if flagged && s.Decision == nil {
		return 1
	}
	return 0
}

// compareOpt compares optional values as the store does: unknown is the
// smallest, so it comes last largest-first and first smallest-first.
func compareOpt(a, b *float64, desc bool) int {
	var c int
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		c = -1
	case b == nil:
		c = 1
	default:
		c = cmp.Compare(*a, *b)
	}
	if desc {
		return -c
	}
	return c
}

func costOf(s *Session) *float64 { return s.EstimatedUSD }

func startOf(s *Session) *float64 {
	if s.StartedAt == nil {
		return nil
	}
	v := float64(s.StartedAt.UnixMilli())
	return &v
}

// sortValue is a session's value for a sort key.
func sortValue(s *Session, k SortKey) *float64 {
	f := func(v float64) *float64 { return &v }
	switch k {
	case SortStarted:
		return startOf(s)
	case SortDuration:
		if s.TotalDurationMs == nil {
			return nil
		}
		return f(float64(*s.TotalDurationMs))
	case SortCost:
		return s.EstimatedUSD
	case SortTokens:
		if t := tokensOf(&s.Summary); t != nil {
			return f(float64(*t))
		}
		return nil
	case SortStalls:
		return f(float64(s.StallCount))
	case SortErrors:
		return f(float64(s.ErrorCount))
	case SortApprovals:
		return f(float64(s.ApprovalCount))
	}
	return nil
}
