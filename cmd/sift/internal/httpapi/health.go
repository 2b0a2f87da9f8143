package httpapi

import (
	"net/http"

	"github.com/agentsift/sift/core/review"
)

// handleHealth serves GET /healthz: 200 when the store answers a query,
// 503 otherwise.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	if _, err := s.store.ListSessions(r.Context(), review.Query{Limit: 1}); err != nil {
		s.log.Error("Health check failed", "err", err)
		writeError(w, http.StatusServiceUnavailable, CodeUnavailable, "the store does not answer")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "writes": s.WritesAllowed()})
}
