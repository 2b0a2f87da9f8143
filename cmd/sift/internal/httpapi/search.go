package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// searchSnippetBytes is the length of a match's snippet in GET /search.
const searchSnippetBytes = 200

// searchHit is one session of GET /search: its list row and the places it
// matched.
type searchHit struct {
	Session review.Session `json:"session"`
	Matches []search.Match `json:"matches"`
}

// searchList is the body of GET /search.
type searchList struct {
	Query      string      `json:"query"`
	Results    []searchHit `json:"results"`
	Limit      int         `json:"limit"`
	Offset     int         `json:"offset"`
	NextOffset *int        `json:"nextOffset,omitempty"`
}

// handleSearch serves GET /search?q=: the sessions a search in the query
// language of `sift search` (q) selects, with where each matched, paged
// and filtered as GET /sessions (limit, offset, sort, asc and its
// filters). A query that cannot be read is the client's error.
func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	q, err := sessionQuery(r)
	if err != nil {
		paramFail(w, err)
		return
	}
	q.Search = r.URL.Query().Get("q")
	if strings.TrimSpace(q.Search) == "" {
		paramFail(w, &paramError{CodeInvalidParameter, "q must be a search (sift help search)"})
		return
	}
	page, err := s.store.ListSessions(r.Context(), q)
	if err != nil {
		s.searchError(w, err)
		return
	}
	out := searchList{Query: q.Search, Results: []searchHit{}, Limit: q.Limit, Offset: q.Offset}
	for _, sess := range page.Sessions {
		ms, err := s.store.Matches(r.Context(), sess.Key(), q, searchSnippetBytes)
		if err != nil {
			s.searchError(w, err)
			return
		}
		if ms == nil {
			ms = []search.Match{}
		}
		out.Results = append(out.Results, searchHit{Session: *sess.Shown(), Matches: ms})
	}
	if len(page.Sessions) == q.Limit {
		next := q.Offset + q.Limit
		out.NextOffset = &next
	}
	writeJSON(w, http.StatusOK, out)
}

// searchError answers a failed search: a query that cannot be read is a
// 400 naming why, anything else a store error.
func (s *Server) searchError(w http.ResponseWriter, err error) {
	var pe *search.ParseError
	if errors.As(err, &pe) {
		writeError(w, http.StatusBadRequest, CodeInvalidParameter, pe.Error())
		return
	}
	s.storeError(w, "search", err)
}
