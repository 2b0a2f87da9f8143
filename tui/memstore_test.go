package tui

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/summary"
)

// errNotFound is returned by MemStore for an unknown session.
var errNotFound = errors.New("session not found")

// MemStore is a Store held in memory, for the inbox's tests: it orders and
// filters as the SQLite store does (store/query.go), from the summaries it
// holds.
type MemStore struct {
	mu        sync.Mutex
	sessions  []review.Session
	decisions []review.Decision
	now       func() time.Time
	lastID    int64
	// version counts the writes (Changed).
	version uint64
}

var _ Store = (*MemStore)(nil)

// NewMemStore returns a store holding the given sessions.
func NewMemStore(sessions []review.Session) *MemStore {
	return &MemStore{sessions: slices.Clone(sessions), now: time.Now}
}

// Add appends sessions, as an import would.
func (m *MemStore) Add(sessions ...review.Session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sessions = append(m.sessions, sessions...)
	m.version++
}

// ListSessions implements Store.
func (m *MemStore) ListSessions(_ context.Context, q review.Query) (review.Page, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var p review.Page
	if _, err := search.Parse(q.Search, search.Options{Now: m.now(), Typing: q.Typing}); err != nil {
		return p, err
	}
	rows := make([]*review.Session, 0, len(m.sessions))
	for i := range m.sessions {
		if s := &m.sessions[i]; m.matches(s, q) {
			rows = append(rows, s)
		}
	}
	p.Total = len(rows)
	flagged := make(map[*review.Session]bool, len(rows))
	for _, s := range rows {
		flagged[s] = m.flagged(s)
	}
	slices.SortStableFunc(rows, func(a, b *review.Session) int { return compare(a, b, q, flagged[a], flagged[b]) })
	if q.GroupByWorkItem {
		// Each group where its most urgent session is.
		first := map[string]int{}
		for i, s := range rows {
			if _, ok := first[s.WorkItemID]; !ok {
				first[s.WorkItemID] = i
			}
		}
		slices.SortStableFunc(rows, func(a, b *review.Session) int { return cmp.Compare(first[a.WorkItemID], first[b.WorkItemID]) })
		p.Groups = map[string]review.GroupTotals{}
		for _, s := range rows {
			g := p.Groups[s.WorkItemID]
			g.Sessions++
			if flagged[s] {
				g.Flagged++
			}
			if s.State == "" {
				g.Undecided++
			}
			if s.EstimatedUSD != nil {
				v := usd(g.USD) + *s.EstimatedUSD
				g.USD = &v
			}
			p.Groups[s.WorkItemID] = g
		}
	}
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
func (m *MemStore) Counts(_ context.Context, q review.Query) (review.Counts, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var c review.Counts
	for i := range m.sessions {
		s := &m.sessions[i]
		if !m.matches(s, q) {
			continue
		}
		c.Total++
		f := m.flagged(s)
		if f {
			c.Flagged++
		}
		if s.State == "" {
			c.Undecided++
		}
		if f && s.State == "" {
			c.ToReview++
		}
	}
	return c, nil
}

// Changed implements Store: the number of writes so far.
func (m *MemStore) Changed(context.Context) (uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.version, nil
}

// GetSession implements Store.
func (m *MemStore) GetSession(_ context.Context, k review.SessionKey) (review.Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.sessions {
		if s.Key() == k {
			return s, nil
		}
	}
	return review.Session{}, errNotFound
}

// Decide implements Store. The session's decision and review state follow
// its current decisions, as in the store.
func (m *MemStore) Decide(_ context.Context, d review.Decision) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !d.Kind.Valid() {
		return errors.New("not a decision")
	}
	i := slices.IndexFunc(m.sessions, func(s review.Session) bool { return s.Key() == d.Session })
	if i < 0 {
		return errNotFound
	}
	if d.CreatedAt.IsZero() {
		d.CreatedAt = m.now()
	}
	m.lastID++
	m.version++
	d.ID = m.lastID
	m.decisions = append(m.decisions, d)
	m.restate(i)
	if c := m.sessions[i].Claim; d.OnSession() && c != nil && c.Reviewer == d.Reviewer {
		m.sessions[i].Claim = nil
	}
	return nil
}

// Claim implements Store, as the store does (store/claims.go), with
// claims that never expire.
func (m *MemStore) Claim(_ context.Context, k review.SessionKey, reviewer string, ttl time.Duration) (review.Claim, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.sessions, func(s review.Session) bool { return s.Key() == k })
	if i < 0 {
		return review.Claim{}, errNotFound
	}
	if c := m.sessions[i].Claim; c != nil && c.Reviewer != reviewer {
		return review.Claim{}, &review.ClaimedError{Claim: *c}
	}
	if ttl <= 0 {
		ttl = review.DefaultClaimTTL
	}
	c := review.Claim{Session: k, Reviewer: reviewer, ClaimedAt: m.now(), ExpiresAt: m.now().Add(ttl)}
	m.sessions[i].Claim = &c
	m.version++
	return c, nil
}

// Release implements Store.
func (m *MemStore) Release(_ context.Context, k review.SessionKey, reviewer string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.sessions, func(s review.Session) bool { return s.Key() == k })
	switch {
	case i < 0:
		return errNotFound
	case m.sessions[i].Claim == nil:
		return review.ErrNotClaimed
	case m.sessions[i].Claim.Reviewer != reviewer:
		return &review.ClaimedError{Claim: *m.sessions[i].Claim}
	}
	m.sessions[i].Claim = nil
	m.version++
	return nil
}

// Undo implements Store.
func (m *MemStore) Undo(_ context.Context, k review.SessionKey, reviewer string) (review.Decision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.sessions, func(s review.Session) bool { return s.Key() == k })
	if i < 0 {
		return review.Decision{}, errNotFound
	}
	d := review.Undoable(m.history(k))
	if d == nil {
		return review.Decision{}, review.ErrNothingToUndo
	}
	m.lastID++
	m.version++
	m.decisions = append(m.decisions, review.Decision{ID: m.lastID, Session: k, Kind: review.Undone, Supersedes: d.ID,
		TurnID: d.TurnID, ToolCallID: d.ToolCallID, Reviewer: reviewer, CreatedAt: m.now()})
	m.restate(i)
	return *d, nil
}

// history is a session's decisions, oldest first.
func (m *MemStore) history(k review.SessionKey) []review.Decision {
	var out []review.Decision
	for _, d := range m.decisions {
		if d.Session == k {
			out = append(out, d)
		}
	}
	return out
}

// restate sets a session's decision and review state from its current
// decisions.
func (m *MemStore) restate(i int) {
	s := &m.sessions[i]
	cur := review.Current(m.history(s.Key()))
	s.Decision = nil
	for j := range cur {
		if cur[j].OnSession() {
			d := cur[j]
			s.Decision = &d
		}
	}
	s.State = review.State(s.Turns, s.ToolCalls, cur)
}

// Followups implements Store.
func (m *MemStore) Followups(context.Context) ([]review.Followup, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []review.Followup
	for _, s := range m.sessions {
		for _, d := range review.Current(m.history(s.Key())) {
			if d.OpenFollowup(s.Decision) {
				brief := s
				brief.ToolCalls, brief.Stalls, brief.Turns = nil, nil, nil
				out = append(out, review.Followup{Decision: d, Session: brief, Call: review.FailingCall(&d, s.ToolCalls)})
			}
		}
	}
	slices.SortFunc(out, func(a, b review.Followup) int { return cmp.Compare(a.Decision.ID, b.Decision.ID) })
	return out, nil
}

// Locate implements Store.
func (m *MemStore) Locate(ctx context.Context, q review.Query, k review.SessionKey) (int, error) {
	q.Limit, q.Offset = 0, 0
	p, err := m.ListSessions(ctx, q)
	if err != nil {
		return 0, err
	}
	return slices.IndexFunc(p.Sessions, func(s review.Session) bool { return s.Key() == k }), nil
}

// Decisions implements Store.
func (m *MemStore) Decisions(_ context.Context, k review.SessionKey) ([]review.Decision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.history(k), nil
}

// matches reports whether a session passes a query's filters.
func (m *MemStore) matches(s *review.Session, q review.Query) bool {
	switch {
	case q.Flagged && !m.flagged(s),
		q.Undecided && s.State != "",
		q.Agent != "" && s.AgentKind != q.Agent,
		q.WorkItem != "" && s.WorkItemID != q.WorkItem:
		return false
	}
	if q.Search == "" {
		return true
	}
	sq, err := search.Parse(q.Search, search.Options{Now: m.now(), Typing: q.Typing})
	if err != nil {
		return false
	}
	for _, f := range sq.Filters {
		if m.passes(s, f) == f.Not {
			return false
		}
	}
	return sq.MatchDoc(m.doc(s))
}

// doc is a session's indexed text, as the store builds it: from its
// summary (MemStore has no stream text besides) and its decisions' notes.
func (m *MemStore) doc(s *review.Session) *search.Doc {
	d := search.NewDoc(&s.Summary, nil)
	for _, x := range m.decisions {
		if x.Session == s.Key() {
			d.Add(search.InNote, x.Note, search.Location{TurnID: x.TurnID, CallID: x.ToolCallID})
		}
	}
	return d
}

// passes reports whether a session passes a field filter, as the store's
// SQL has it (store/search_query.go).
func (m *MemStore) passes(s *review.Session, f search.Filter) bool {
	has := func(v string) bool { return strings.HasPrefix(strings.ToLower(v), f.Value) }
	switch f.Field {
	case search.FieldAgent:
		return has(s.AgentKind)
	case search.FieldTool:
		return slices.ContainsFunc(s.ToolCalls, func(c summary.ToolCall) bool { return has(c.Name) })
	case search.FieldFlag:
		return slices.ContainsFunc(s.Flags, func(fl summary.Flag) bool { return has(string(fl)) })
	case search.FieldModel:
		return strings.Contains(strings.ToLower(s.Model), f.Value)
	case search.FieldOutcome:
		return s.Outcome == f.Outcome
	case search.FieldDecision:
		if f.Value == search.DecisionNone {
			return s.Decision == nil
		}
		return slices.ContainsFunc(m.decisions, func(d review.Decision) bool { return d.Session == s.Key() && has(string(d.Kind)) })
	case search.FieldReviewer:
		return slices.ContainsFunc(m.decisions, func(d review.Decision) bool { return d.Session == s.Key() && has(d.Reviewer) })
	case search.FieldSince:
		return s.EndedAt != nil && !s.EndedAt.Before(f.Since)
	case search.FieldIs:
		if f.Value == search.IsFlagged {
			return m.flagged(s)
		}
		return s.State == ""
	case search.FieldMine, search.FieldBy:
		// Decided by the reviewer (MemStore keeps no claims).
		return s.Decision != nil && strings.EqualFold(s.Decision.Reviewer, f.Value)
	case search.FieldCost:
		if s.EstimatedUSD == nil {
			return false
		}
		c := *s.EstimatedUSD
		return map[search.Op]bool{search.OpGT: c > f.Cost, search.OpGE: c >= f.Cost, search.OpLT: c < f.Cost, search.OpLE: c <= f.Cost}[f.Op]
	}
	return true
}

// Matches implements Store.
func (m *MemStore) Matches(_ context.Context, k review.SessionKey, q review.Query, n int) ([]search.Match, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	sq, err := search.Parse(q.Search, search.Options{Now: m.now(), Typing: q.Typing})
	if err != nil {
		return nil, err
	}
	for i := range m.sessions {
		if s := &m.sessions[i]; s.Key() == k {
			return sq.Matches(m.doc(s), n), nil
		}
	}
	return nil, errNotFound
}

// flagged reports whether a session is flagged as the store says: by its
// summary, or by an open needs_followup decision on it, one of its turns
// or one of its tool calls.
func (m *MemStore) flagged(s *review.Session) bool {
	if s.Flagged {
		return true
	}
	for _, d := range review.Current(m.history(s.Key())) {
		if d.OpenFollowup(s.Decision) {
			return true
		}
	}
	return false
}

// usd is a known cost or 0.
func usd(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// compare orders two sessions for a query, with whether each is flagged
// given, as the store does (store/query.go orderTerms): unknown values are
// the smallest; ties under the triage order fall back to cost, under
// stalls, errors and approvals to the start time, in the order's
// direction, then to the key, so that pages are stable.
func compare(a, b *review.Session, q review.Query, aFlagged, bFlagged bool) int {
	desc := !q.Asc || q.Sort == review.SortTriage
	var c int
	if q.Sort == review.SortTriage {
		c = cmp.Compare(triageRank(b, bFlagged), triageRank(a, aFlagged))
		if c == 0 {
			c = compareOpt(a.EstimatedUSD, b.EstimatedUSD, true)
		}
	} else {
		c = compareOpt(sortValue(a, q.Sort), sortValue(b, q.Sort), !q.Asc)
	}
	if c != 0 {
		return c
	}
	switch q.Sort {
	case review.SortStalls, review.SortErrors, review.SortApprovals:
		if c = compareOpt(sortValue(a, review.SortStarted), sortValue(b, review.SortStarted), desc); c != 0 {
			return c
		}
	}
	c = cmp.Or(cmp.Compare(a.WorkItemID, b.WorkItemID), cmp.Compare(a.FileName, b.FileName))
	if desc {
		return -c
	}
	return c
}

// triageRank is the store's triage rank of a session (review.TriageFacts).
func triageRank(s *review.Session, flagged bool) int {
	return review.TriageFacts{Live: s.Live, LiveWait: s.LiveWait, Undecided: s.State == "", Flagged: flagged,
		Outcome: s.Outcome, AgentKind: s.AgentKind, CostKnown: s.EstimatedUSD != nil}.TriageRank()
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

// sortValue is a session's value for a sort key.
func sortValue(s *review.Session, k review.SortKey) *float64 {
	f := func(v float64) *float64 { return &v }
	switch k {
	case "", review.SortStarted:
		if s.StartedAt == nil {
			return nil
		}
		return f(float64(s.StartedAt.UnixMilli()))
	case review.SortDuration:
		if s.TotalDurationMs == nil {
			return nil
		}
		return f(float64(*s.TotalDurationMs))
	case review.SortCost:
		return s.EstimatedUSD
	case review.SortTokens:
		if t := tokensOf(&s.Summary); t != nil {
			return f(float64(*t))
		}
		return nil
	case review.SortStalls:
		return f(float64(s.StallCount))
	case review.SortErrors:
		return f(float64(s.ErrorCount))
	case review.SortApprovals:
		return f(float64(s.ApprovalCount))
	}
	return nil
}
