package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
)

// bodyReadTimeout bounds reading one request body.
const bodyReadTimeout = 30 * time.Second

// acceptWrite checks a write request and reads its body into v, answering
// when it cannot: a cross-origin browser request may not write (a
// tokenless loopback server must not write for a web page:
// Sec-Fetch-Site, Origin), then the token rule (authorizeWrite), then
// the body (decodeBody).
func (s *Server) acceptWrite(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := s.cop.Check(r); err != nil {
		writeError(w, http.StatusForbidden, CodeForbidden, "cross-origin requests may not write")
		return false
	}
	return s.authorizeWrite(w, r) && decodeBody(w, r, v)
}

// reviewerOr is the reviewer a write names, else the server's.
func (s *Server) reviewerOr(id string) string {
	if id == "" {
		return s.reviewer
	}
	return id
}

// authorizeWrite applies the token rule to a write and answers when it
// fails: with a token configured, the request must carry it as a bearer
// token; without one, writes are allowed only on a loopback listener.
func (s *Server) authorizeWrite(w http.ResponseWriter, r *http.Request) bool {
	if s.token == "" {
		if !s.loopback {
			writeError(w, http.StatusForbidden, CodeWritesDisabled,
				"writes are disabled: configure a token, or bind the server to a loopback address")
			return false
		}
		return true
	}
	if !s.bearerOK(r) {
		unauthorized(w)
		return false
	}
	return true
}

// bearerOK reports whether the request carries the configured token as
// `Authorization: Bearer TOKEN` (the scheme in any case). The comparison
// is of SHA-256 digests in constant time, so that neither the token's
// bytes nor its length can be learnt from how long a refusal takes.
func (s *Server) bearerOK(r *http.Request) bool {
	if s.token == "" {
		return false
	}
	const prefix = "Bearer "
	auth := r.Header.Get("Authorization")
	if len(auth) <= len(prefix) || !strings.EqualFold(auth[:len(prefix)], prefix) {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(auth[len(prefix):])))
	return subtle.ConstantTimeCompare(got[:], s.tokenSum[:]) == 1
}

// unauthorized answers 401 with the challenge a client expects.
func unauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="sift"`)
	writeError(w, http.StatusUnauthorized, CodeUnauthorized, "a valid bearer token is required")
}

// decodeBody reads a JSON request body into v and answers when it cannot:
// 415 unless the body is application/json, 413 over MaxBodyBytes, 400 for
// an unknown field, malformed JSON or anything after the one object.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, CodeUnsupportedMedia, "the body must be application/json")
		return false
	}
	if r.ContentLength > MaxBodyBytes {
		writeError(w, http.StatusRequestEntityTooLarge, CodeBodyTooLarge, "the body is larger than 64 KiB")
		return false
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyReadTimeout))
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil {
		if dec.Decode(new(json.RawMessage)) != io.EOF {
			err = errors.New("trailing data")
		}
	}
	if err == nil {
		return true
	}
	var tooBig *http.MaxBytesError
	switch msg := err.Error(); {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, CodeBodyTooLarge, "the body is larger than 64 KiB")
	case strings.HasPrefix(msg, "json: unknown field "):
		writeError(w, http.StatusBadRequest, CodeUnknownField, "unknown field "+strings.TrimPrefix(msg, "json: unknown field "))
	case msg == "trailing data":
		writeError(w, http.StatusBadRequest, CodeInvalidBody, "the body must be exactly one JSON object")
	default:
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			writeError(w, http.StatusBadRequest, CodeInvalidBody, "field "+te.Field+" has the wrong type")
			return false
		}
		writeError(w, http.StatusBadRequest, CodeInvalidBody, "the body is not valid JSON")
	}
	return false
}
