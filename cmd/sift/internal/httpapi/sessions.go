package httpapi

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agentsift/sift/core/export"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// sessionList is the body of GET /sessions.
type sessionList struct {
	Sessions []review.Session `json:"sessions"`
	Limit    int              `json:"limit"`
	Offset   int              `json:"offset"`
	// NextOffset is set when another page may follow.
	NextOffset *int `json:"nextOffset,omitempty"`
}

// handleSessions serves GET /sessions with the filters and sorts of
// `sift list`: sort, asc, flagged, undecided, agent, workItem, since, text,
// limit and offset; full=true adds tool calls, stalls and turns.
func (s *Server) handleSessions(w http.ResponseWriter, r *http.Request) {
	q, err := sessionQuery(r)
	if err != nil {
		paramFail(w, err)
		return
	}
	page, err := s.store.ListSessions(r.Context(), q)
	if err != nil {
		s.storeError(w, "list sessions", err)
		return
	}
	out := sessionList{Sessions: make([]review.Session, len(page.Sessions)), Limit: q.Limit, Offset: q.Offset}
	for i := range page.Sessions {
		out.Sessions[i] = *page.Sessions[i].Shown()
	}
	if len(page.Sessions) == q.Limit {
		next := q.Offset + q.Limit
		out.NextOffset = &next
	}
	writeJSON(w, http.StatusOK, out)
}

// sessionQuery reads the query parameters of GET /sessions.
func sessionQuery(r *http.Request) (review.Query, error) {
	v := r.URL.Query()
	var q review.Query
	var err error
	if q.Limit, err = parseLimit(v); err != nil {
		return q, err
	}
	if q.Offset, err = parseOffset(v); err != nil {
		return q, err
	}
	if sort := v.Get("sort"); sort != "" {
		if !slices.Contains(review.SortKeys(), review.SortKey(sort)) {
			var ks []string
			for _, k := range review.SortKeys() {
				ks = append(ks, string(k))
			}
			return q, &paramError{CodeInvalidParameter, "sort must be one of " + strings.Join(ks, ", ")}
		}
		q.Sort = review.SortKey(sort)
	}
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"asc", &q.Asc}, {"flagged", &q.Flagged}, {"undecided", &q.Undecided}, {"full", &q.Full}} {
		if *b.dst, err = parseBool(v, b.name); err != nil {
			return q, err
		}
	}
	q.Agent, q.WorkItem, q.Text = v.Get("agent"), v.Get("workItem"), v.Get("text")
	since, err := parseDuration(v, "since")
	if err != nil {
		return q, err
	}
	if since > 0 {
		q.Since = time.Now().Add(-since)
	}
	return q, nil
}

// decisionJSON is a decision as the API's decision routes write it: the
// decision's own JSON (review.Decision, the form a session's JSON carries)
// with its id and session in front and its target before the kind, the
// order the API has always written. It is a layout only: decisions are
// never read back from it.
type decisionJSON struct {
	ID         int64               `json:"id,omitempty"`
	WorkItemID string              `json:"workItemId"`
	FileName   string              `json:"fileName"`
	TurnID     string              `json:"turnId,omitempty"`
	ToolCallID string              `json:"toolCallId,omitempty"`
	Decision   review.DecisionKind `json:"decision"`
	Note       string              `json:"note,omitempty"`
	ReviewerID string              `json:"reviewerId,omitempty"`
	CreatedAt  time.Time           `json:"createdAt"`
	// Supersedes is, on an undo (decision "undone"), the id of the
	// decision it withdrew.
	Supersedes int64 `json:"supersedes,omitempty"`
}

func toDecisionJSON(d review.Decision) decisionJSON {
	k := d.Session.Shown()
	return decisionJSON{
		ID: d.ID, WorkItemID: k.WorkItemID, FileName: k.FileName, TurnID: d.TurnID, ToolCallID: d.ToolCallID,
		Decision: d.Kind, Note: d.Note, ReviewerID: d.Reviewer, CreatedAt: d.CreatedAt, Supersedes: d.Supersedes,
	}
}

// decisionList is the body of GET /sessions/{id}/decisions.
type decisionList struct {
	WorkItemID string `json:"workItemId"`
	FileName   string `json:"fileName"`
	// Current is the latest decision of each target (the session, its
	// turns and tool calls), the session-level one first.
	Current []decisionJSON `json:"current"`
	// History is every decision, oldest first, paged by limit and offset.
	History    []decisionJSON `json:"history"`
	Limit      int            `json:"limit"`
	Offset     int            `json:"offset"`
	NextOffset *int           `json:"nextOffset,omitempty"`
}

// handleDecisions serves GET /sessions/{id}/decisions, where id is a
// session reference as `sift decide` takes it (a unique prefix of a file
// name), and GET /sessions/{workItemId}/{fileName}/decisions.
func (s *Server) handleDecisions(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	limit, err := parseLimit(v)
	if err != nil {
		paramFail(w, err)
		return
	}
	offset, err := parseOffset(v)
	if err != nil {
		paramFail(w, err)
		return
	}
	ref := r.PathValue("id")
	if ref == "" {
		ref = r.PathValue("workItemId") + "/" + r.PathValue("fileName")
	}
	key, err := s.store.ResolveSession(r.Context(), ref)
	if err != nil {
		s.storeError(w, "resolve session", err)
		return
	}
	hist, err := s.store.Decisions(r.Context(), key)
	if err != nil {
		s.storeError(w, "decisions", err)
		return
	}
	cur, err := s.store.LatestDecisions(r.Context(), key)
	if err != nil {
		s.storeError(w, "latest decisions", err)
		return
	}
	shown := key.Shown()
	out := decisionList{WorkItemID: shown.WorkItemID, FileName: shown.FileName, Limit: limit, Offset: offset,
		Current: []decisionJSON{}, History: []decisionJSON{}}
	for _, d := range cur {
		out.Current = append(out.Current, toDecisionJSON(d))
	}
	if offset < len(hist) {
		page := hist[offset:min(len(hist), offset+limit)]
		for _, d := range page {
			out.History = append(out.History, toDecisionJSON(d))
		}
		if offset+limit < len(hist) {
			next := offset + limit
			out.NextOffset = &next
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// paramFail answers a bad query parameter.
func paramFail(w http.ResponseWriter, err error) {
	var pe *paramError
	if errors.As(err, &pe) {
		writeError(w, http.StatusBadRequest, pe.code, pe.msg)
		return
	}
	writeError(w, http.StatusBadRequest, CodeBadRequest, "bad request")
}

// storeError answers a store failure: not found and ambiguous references
// are the client's; anything else is logged and answered 500 (503 when the
// request was cancelled or the disk is full) without the driver's text.
func (s *Server) storeError(w http.ResponseWriter, what string, err error) {
	switch {
	case errors.Is(err, store.ErrUnknownTarget):
		writeError(w, http.StatusNotFound, CodeNotFound, "the session has no such turn or tool call, or the tool call is not the turn's")
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, CodeNotFound, "no such session")
	case errors.Is(err, store.ErrAmbiguous):
		writeError(w, http.StatusConflict, CodeAmbiguous, "the session reference matches more than one session; give <workItemId>/<fileName>")
	case errors.Is(err, store.ErrFull):
		s.log.Error("Request failed", "op", what, "err", err)
		writeError(w, http.StatusServiceUnavailable, CodeUnavailable, "the store is full")
	default:
		s.internal(w, what, err)
	}
}

// handleFollowups answers GET /followups: the open needs_followup
// decisions, each with its note, failing call and resume command, as
// `sift followups --json` writes them.
func (s *Server) handleFollowups(w http.ResponseWriter, r *http.Request) {
	fus, err := s.store.Followups(r.Context())
	if err != nil {
		s.storeError(w, "followups", err)
		return
	}
	out := make([]export.FollowupItem, len(fus))
	for i := range fus {
		res := review.Resume{Why: "no resume command: this server was given no way to build one"}
		if s.resume != nil {
			res = s.resume(&fus[i])
		}
		out[i] = export.FollowupOf(&fus[i], res)
	}
	writeJSON(w, http.StatusOK, out)
}
