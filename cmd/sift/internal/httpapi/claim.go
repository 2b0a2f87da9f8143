package httpapi

import (
	"errors"
	"net/http"
	"time"

	"github.com/agentsift/sift/core/review"
)

// CodeClaimed is the error of claiming, or releasing, a session another
// reviewer holds; CodeNotClaimed of releasing one nobody holds.
const (
	CodeClaimed    Code = "claimed"
	CodeNotClaimed Code = "not_claimed"
)

// claimRequest is the body of POST /sessions/{workItemId}/{fileName}/claim:
// the fields of `sift claim`.
type claimRequest struct {
	ReviewerID string `json:"reviewerId"`
	// Release ends the reviewer's own claim instead.
	Release bool `json:"release"`
	// Minutes is how long the claim holds; 0 is the server's default.
	Minutes int `json:"minutes"`
}

// claimJSON is a claim as the API answers it.
type claimJSON struct {
	WorkItemID string `json:"workItemId"`
	FileName   string `json:"fileName"`
	review.Claim
}

// maxClaimMinutes bounds a claim's minutes: a year.
const maxClaimMinutes = 365 * 24 * 60

// handleClaim serves POST /sessions/{workItemId}/{fileName}/claim: it
// claims the session for the reviewer (201 with the claim), or releases
// their claim ("release": true, 204). It writes under the rules of POST
// /decisions; a session another reviewer holds is 409 claimed, naming
// them.
func (s *Server) handleClaim(w http.ResponseWriter, r *http.Request) {
	var req claimRequest
	if !s.acceptWrite(w, r, &req) {
		return
	}
	if req.Minutes < 0 || req.Minutes > maxClaimMinutes || (req.Release && req.Minutes != 0) {
		writeError(w, http.StatusBadRequest, CodeInvalidBody, "minutes must be between 1 and a year, and not given with release")
		return
	}
	key, err := s.store.ResolveSession(r.Context(), r.PathValue("workItemId")+"/"+r.PathValue("fileName"))
	if err != nil {
		s.storeError(w, "resolve session", err)
		return
	}
	reviewer := s.reviewerOr(req.ReviewerID)
	var c review.Claim
	if req.Release {
		err = s.store.Release(r.Context(), key, reviewer)
	} else {
		ttl := s.claimTTL
		if req.Minutes > 0 {
			ttl = time.Duration(req.Minutes) * time.Minute
		}
		c, err = s.store.Claim(r.Context(), key, reviewer, ttl)
	}
	var ce *review.ClaimedError
	switch {
	case errors.As(err, &ce):
		writeError(w, http.StatusConflict, CodeClaimed, ce.Error())
	case errors.Is(err, review.ErrNotClaimed):
		writeError(w, http.StatusConflict, CodeNotClaimed, "the session is not claimed")
	case err != nil:
		s.storeError(w, "claim", err)
	case req.Release:
		w.WriteHeader(http.StatusNoContent)
	default:
		writeJSON(w, http.StatusCreated, claimJSON{WorkItemID: key.Shown().WorkItemID, FileName: key.Shown().FileName, Claim: c})
	}
}
