package httpapi

import (
	"net/http"
	"strings"
	"testing"
)

// TestTokenRule checks who may write: with a token, only its bearer; with
// none, anyone on a loopback listener (another needs a token to start at
// all: TestNonLoopbackNeedsToken).
func TestTokenRule(t *testing.T) {
	body := `{"session":"wi-x/none.jsonl","decision":"reviewed"}`
	// Past the token rule the request reaches the store, which does not
	// know the session: 404 proves the write was let through.
	tests := []struct {
		name     string
		opt      Options
		auth     string
		status   int
		code     Code
		writesOK bool
	}{
		{"token with spaces around it", Options{Token: " s3cret\n"}, "Bearer s3cret", 404, CodeNotFound, true},
		{"loopback, no token", Options{Loopback: true}, "", 404, CodeNotFound, true},
		{"loopback, no token configured, token sent", Options{Loopback: true}, "Bearer x", 404, CodeNotFound, true},
		{"token, none sent", Options{Token: "s3cret"}, "", 401, CodeUnauthorized, true},
		{"token, wrong", Options{Token: "s3cret"}, "Bearer s3cre", 401, CodeUnauthorized, true},
		{"token, wrong scheme", Options{Token: "s3cret"}, "Basic s3cret", 401, CodeUnauthorized, true},
		{"token, right", Options{Token: "s3cret"}, "Bearer s3cret", 404, CodeNotFound, true},
		{"token, right, lowercase scheme", Options{Token: "s3cret"}, "bearer s3cret", 404, CodeNotFound, true},
		{"token on loopback, none sent", Options{Token: "s3cret", Loopback: true}, "", 401, CodeUnauthorized, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opt)
			var hdr []string
			if tc.auth != "" {
				hdr = []string{"Authorization", tc.auth}
			}
			r := e.do(http.MethodPost, "/decisions", "application/json", body, hdr...)
			e.wantError(r, tc.status, tc.code)
			if tc.status == 401 && r.header.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
			if e.api.WritesAllowed() != tc.writesOK {
				t.Errorf("WritesAllowed = %v, want %v", e.api.WritesAllowed(), tc.writesOK)
			}
		})
	}
}

func TestDecideBody(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	post := func(ct, body string) reply { return e.do(http.MethodPost, "/decisions", ct, body) }
	e.wantError(post("application/json", `{"session":"s","decision":"reviewed","extra":1}`), 400, CodeUnknownField)
	e.wantError(post("application/json", `{"session":"s","decision":"reviewed","Decison":"x"}`), 400, CodeUnknownField)
	e.wantError(post("application/json", `{"session":"s","decision":"reviewed"}{}`), 400, CodeInvalidBody)
	e.wantError(post("application/json", `{"session":`), 400, CodeInvalidBody)
	e.wantError(post("application/json", `{"session":1,"decision":"reviewed"}`), 400, CodeInvalidBody)
	e.wantError(post("application/json", `[]`), 400, CodeInvalidBody)
	e.wantError(post("application/json", `{"session":"s","decision":"approved"}`), 400, CodeInvalidBody)
	e.wantError(post("application/json", `{"decision":"reviewed"}`), 400, CodeInvalidBody)
	e.wantError(post("application/json", `{"session":"a/b","workItemId":"a","fileName":"b","decision":"reviewed"}`), 400, CodeInvalidBody)
	e.wantError(post("text/plain", `{"session":"s","decision":"reviewed"}`), 415, CodeUnsupportedMedia)
	e.wantError(post("", `{"session":"s","decision":"reviewed"}`), 415, CodeUnsupportedMedia)
	e.wantError(post("application/json; charset=utf-8", `{"session":"none/x","decision":"reviewed"}`), 404, CodeNotFound)

	big := `{"session":"s","decision":"reviewed","note":"` + strings.Repeat("x", MaxBodyBytes) + `"}`
	e.wantError(post("application/json", big), 413, CodeBodyTooLarge)
	// Without a Content-Length the limit still holds while reading.
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+"/decisions", struct{ *strings.Reader }{strings.NewReader(big)})
	must(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = -1
	resp, err := e.srv.Client().Do(req)
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked big body: status %d, want 413", resp.StatusCode)
	}
	// Just under the limit is read.
	okNote := `{"session":"none/x","decision":"reviewed","note":"` + strings.Repeat("x", MaxBodyBytes-100) + `"}`
	e.wantError(post("application/json", okNote), 404, CodeNotFound)
}

// TestDecideCrossOrigin refuses a browser's cross-site write even on a
// tokenless loopback server.
func TestDecideCrossOrigin(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	r := e.do(http.MethodPost, "/decisions", "application/json", `{"session":"none/x","decision":"reviewed"}`,
		"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	e.wantError(r, http.StatusForbidden, CodeForbidden)
	// A same-origin browser request is a write like any other.
	r = e.do(http.MethodPost, "/decisions", "application/json", `{"session":"none/x","decision":"reviewed"}`,
		"Sec-Fetch-Site", "same-origin")
	e.wantError(r, http.StatusNotFound, CodeNotFound)
}
