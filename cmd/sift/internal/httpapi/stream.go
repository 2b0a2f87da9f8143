package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"
)

// streamChunk is how much of a stream is written per deadline.
const streamChunk = 32 << 10

// handleStream serves GET /workitems/{id}/agent-streams/{fileName}: the raw
// stream file as application/x-ndjson, copied from disk in chunks. The
// length is the file's size when it was opened; a file still being
// captured is served up to that point.
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) {
	f, fi, err := s.logs.openFile(r.PathValue("id"), r.PathValue("fileName"))
	if err != nil {
		s.pathError(w, err)
		return
	}
	defer f.Close()
	size := fi.Size()
	h := w.Header()
	h.Set("Content-Type", "application/x-ndjson")
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	h.Set("Last-Modified", fi.ModTime().UTC().Format(http.TimeFormat))
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	if err := s.copyWithDeadlines(w, io.LimitReader(f, size)); err != nil {
		s.log.Debug("Stream ended early", "workItem", r.PathValue("id"), "file", r.PathValue("fileName"), "err", err)
	}
}

// copyWithDeadlines copies src to the client in chunks, giving each write
// its own deadline. A client that stops reading makes a write time out,
// which ends the handler and closes the connection; a slow but steady
// reader is served however long the stream is.
func (s *Server) copyWithDeadlines(w http.ResponseWriter, src io.Reader) error {
	rc := http.NewResponseController(w)
	buf := make([]byte, streamChunk)
	for {
		n, rerr := src.Read(buf)
		if n > 0 {
			if err := rc.SetWriteDeadline(time.Now().Add(s.writeTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
				return err
			}
			if _, err := w.Write(buf[:n]); err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}

// pathError answers a failed path resolution.
func (s *Server) pathError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, errBadName):
		writeError(w, http.StatusBadRequest, CodeInvalidPath, "the work item id or file name is not valid")
	case errors.Is(err, errNotFound):
		writeError(w, http.StatusNotFound, CodeNotFound, "no such work item or stream file")
	default:
		s.internal(w, "resolve stream path", err)
	}
}

// internal logs an unexpected error and answers 500 without its text,
// which may name a path or carry a driver message.
func (s *Server) internal(w http.ResponseWriter, what string, err error) {
	s.log.Error("Request failed", "op", what, "err", err)
	writeError(w, http.StatusInternalServerError, CodeInternal, "internal error")
}
