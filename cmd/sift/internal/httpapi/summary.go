package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/textsafe"
	"github.com/agentsift/sift/store"
)

// handleSummary serves GET /workitems/{id}/agent-streams/{fileName}/summary:
// the summary JSON of `sift summary --json`, from the store when it holds
// the file as it is now, else analysed on demand in memory.
func (s *Server) handleSummary(w http.ResponseWriter, r *http.Request) {
	wi, name := r.PathValue("id"), r.PathValue("fileName")
	f, fi, err := s.logs.openFile(wi, name)
	if err != nil {
		s.pathError(w, err)
		return
	}
	f.Close()
	sum, err := s.summaryOf(r.Context(), wi, name, fi)
	if err != nil {
		if errors.Is(err, errNotFound) {
			s.pathError(w, err)
			return
		}
		s.storeError(w, "summary", err)
		return
	}
	writeSessionJSON(w, sum)
}

// writeSessionJSON writes a session's summary JSON with status 200,
// streamed part by part (review.Session.WriteJSON): a summary of many
// calls is never held whole as JSON. Each part goes through textsafe's
// encoder, as every body does.
func writeSessionJSON(w http.ResponseWriter, sess *review.Session) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	// An error here is the client hanging up; the status is sent.
	_ = sess.WriteJSON(w, func(w io.Writer) summary.Encoder { return textsafe.NewEncoder(w) })
}

// summaryOf returns the session of a stream file as it is on disk now.
// A summary the store holds is current when it covers the file's size, or
// when the store's ingest index has the file at its current size and
// mtime (the store's own test for skipping a file). Otherwise the file is
// analysed in memory, once however many requests ask at the same time,
// and nothing is stored: a GET never writes, so that neither a client
// nor a page in a browser that can make one (an <img> pointing at a
// loopback server needs no CORS) can change the store. The inbox's
// import and `sift import` store the file. The decisions of an older
// stored summary of the file go with the fresh one.
func (s *Server) summaryOf(ctx context.Context, wi, name string, fi fs.FileInfo) (*review.Session, error) {
	stored, err := s.store.GetSession(ctx, review.SessionKey{WorkItemID: wi, FileName: name})
	switch {
	case err == nil && stored.ByteCount == fi.Size():
		return &stored, nil
	case err == nil:
		if ok, err := s.indexedAsIs(ctx, wi, name, fi); err != nil || ok {
			return &stored, err
		}
	case errors.Is(err, store.ErrNotFound):
	default:
		return nil, err
	}
	fresh, err := s.flights.do(wi+"/"+name, func() (*summary.Summary, error) { return s.analyzeNow(wi, name) })
	if err != nil {
		return nil, err
	}
	// The session's decisions (none when the store has no summary of it).
	return &review.Session{Summary: *fresh, Decision: stored.Decision, Decisions: stored.Decisions}, nil
}

// indexedAsIs reports whether the store's ingest index has the file at its
// current size and modification time.
func (s *Server) indexedAsIs(ctx context.Context, wi, name string, fi fs.FileInfo) (bool, error) {
	files, err := s.store.StreamFiles(ctx, wi)
	if err != nil {
		return false, err
	}
	for _, f := range files {
		if f.FileName == name && f.Size == fi.Size() && f.ModTime.Equal(fi.ModTime().Truncate(1e6)) {
			return true, nil
		}
	}
	return false, nil
}

// analyzeNow summarizes a file without storing the result.
func (s *Server) analyzeNow(wi, name string) (*summary.Summary, error) {
	f, _, err := s.logs.openFile(wi, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opt := *s.summaryOpts.Load()
	opt.NoReviewEvents = true // the route serves the summary only
	sum, _, err := ingest.Analyze(f, opt)
	if err != nil {
		return nil, fmt.Errorf("analyze %s/%s: %w", wi, name, err)
	}
	sum.WorkItemID, sum.FileName = wi, name
	sum.Phase, sum.Iteration = phaseOf(name)
	return sum, nil
}
