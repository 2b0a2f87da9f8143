package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"

	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/store"
)

// handleSummary serves GET /workitems/{id}/agent-streams/{fileName}/summary:
// the summary JSON of `sift summary --json`, from the store when it holds
// the file as it is now, else analysed on demand and stored, so the next
// request reads it from the store.
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
	writeJSON(w, http.StatusOK, sum)
}

// summaryOf returns the summary of a stream file as it is on disk now.
// A summary the store holds is current when it covers the file's size, or
// when the store's ingest index has the file at its current size and
// mtime (the store's own test for skipping a file). Otherwise the file is
// imported, once however many requests ask at the same time, and read
// back; a file the import defers (its work item is still running) is
// analysed without being stored.
func (s *Server) summaryOf(ctx context.Context, wi, name string, fi fs.FileInfo) (*summary.Summary, error) {
	sum, err := s.store.GetSummary(ctx, wi, name)
	switch {
	case err == nil && sum.ByteCount == fi.Size():
		return sum, nil
	case err == nil:
		if ok, err := s.indexedAsIs(ctx, wi, name, fi); err != nil || ok {
			return sum, err
		}
	case !errors.Is(err, store.ErrNotFound):
		return nil, err
	}
	path := s.logs.joined(wi, name)
	err = s.flights.do(wi+"/"+name, func() error {
		// The import outlives a client that hangs up: another may be
		// waiting for it, and its result is stored for the next one.
		_, err := s.store.Import(context.WithoutCancel(ctx), []string{path},
			store.ImportOptions{Workers: 1, Summary: *s.summaryOpts.Load()}, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	sum, err = s.store.GetSummary(ctx, wi, name)
	if errors.Is(err, store.ErrNotFound) {
		return s.analyzeNow(wi, name)
	}
	return sum, err
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
	sum, _, err := summary.Analyze(f, *s.summaryOpts.Load())
	if err != nil {
		return nil, fmt.Errorf("analyze %s/%s: %w", wi, name, err)
	}
	sum.WorkItemID, sum.FileName = wi, name
	sum.Phase, sum.Iteration = phaseOf(name)
	return sum, nil
}
