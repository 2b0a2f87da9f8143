package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/agentsift/sift/core/review"
)

// decideRequest is the body of POST /decisions: the fields of `sift
// decide`. The session is either Session (`<workItemId>/<fileName>` or a
// unique prefix of a file name) or WorkItemID and FileName.
type decideRequest struct {
	Session    string `json:"session"`
	WorkItemID string `json:"workItemId"`
	FileName   string `json:"fileName"`
	TurnID     string `json:"turnId"`
	ToolCallID string `json:"toolCallId"`
	Decision   string `json:"decision"`
	Note       string `json:"note"`
	ReviewerID string `json:"reviewerId"`
}

// handleDecide serves POST /decisions: it appends a decision and answers
// 201 with it once it is durable.
func (s *Server) handleDecide(w http.ResponseWriter, r *http.Request) {
	var req decideRequest
	if !s.acceptWrite(w, r, &req) {
		return
	}
	kind := review.DecisionKind(req.Decision)
	if !kind.Valid() {
		var ks []string
		for _, k := range review.DecisionKinds() {
			ks = append(ks, string(k))
		}
		writeError(w, http.StatusBadRequest, CodeInvalidBody, "decision must be one of "+strings.Join(ks, ", "))
		return
	}
	if err := review.CheckNote(kind, req.Note); err != nil {
		writeError(w, http.StatusBadRequest, CodeInvalidBody, err.Error())
		return
	}
	ref := req.Session
	switch {
	case ref != "" && (req.WorkItemID != "" || req.FileName != ""):
		writeError(w, http.StatusBadRequest, CodeInvalidBody, "give session, or workItemId and fileName, not both")
		return
	case ref == "" && req.WorkItemID != "" && req.FileName != "":
		ref = req.WorkItemID + "/" + req.FileName
	case ref == "":
		writeError(w, http.StatusBadRequest, CodeInvalidBody, "session (or workItemId and fileName) is required")
		return
	}
	key, err := s.store.ResolveSession(r.Context(), ref)
	if err != nil {
		s.storeError(w, "resolve session", err)
		return
	}
	reviewer := s.reviewerOr(req.ReviewerID)
	d := review.Decision{
		Session: key, TurnID: req.TurnID, ToolCallID: req.ToolCallID,
		Kind: kind, Note: req.Note, Reviewer: reviewer, CreatedAt: time.Now().UTC(),
	}
	if err := s.store.Decide(r.Context(), d); err != nil {
		s.storeError(w, "decide", err)
		return
	}
	writeJSON(w, http.StatusCreated, toDecisionJSON(d))
}
