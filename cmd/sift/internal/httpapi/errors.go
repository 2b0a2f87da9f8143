package httpapi

import (
	"bytes"
	"net/http"

	"github.com/agentsift/sift/core/textsafe"
)

// Code is the stable, machine-readable kind of an API error. Clients match
// on it; the message is for people and may change.
type Code string

// The error codes the API returns.
const (
	CodeBadRequest       Code = "bad_request"
	CodeInvalidPath      Code = "invalid_path"
	CodeInvalidLimit     Code = "invalid_limit"
	CodeInvalidParameter Code = "invalid_parameter"
	CodeInvalidBody      Code = "invalid_body"
	CodeUnknownField     Code = "unknown_field"
	CodeBodyTooLarge     Code = "body_too_large"
	CodeUnsupportedMedia Code = "unsupported_media_type"
	CodeUnauthorized     Code = "unauthorized"
	CodeWritesDisabled   Code = "writes_disabled"
	CodeForbidden        Code = "forbidden"
	CodeNotFound         Code = "not_found"
	CodeAmbiguous        Code = "ambiguous_session"
	CodeMethodNotAllowed Code = "method_not_allowed"
	CodeUnavailable      Code = "unavailable"
	CodeInternal         Code = "internal"
)

// apiError is the JSON body of every error response. It never carries a
// filesystem path or a driver message: those go to the server log only.
type apiError struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
}

// writeError writes a JSON error with its status.
func writeError(w http.ResponseWriter, status int, code Code, msg string) {
	h := w.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	b, _ := textsafe.Marshal(apiError{Code: code, Message: msg})
	_, _ = w.Write(append(b, '\n'))
}

// writeJSON writes v as a JSON body with the given status, encoded as
// `sift summary --json` and `sift list --json` encode it (no HTML
// escaping; DEL, C1 and bidirectional controls escaped by textsafe), so
// that the same summary is the same bytes everywhere and a client that
// prints a field raw prints nothing a terminal acts on.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	if err := textsafe.NewEncoder(&buf).Encode(v); err != nil {
		writeError(w, http.StatusInternalServerError, CodeInternal, "could not encode the response")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
