package httpapi

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestSearch checks GET /search: the sessions and where each matched,
// the bounds of GET /sessions, and a query that cannot be read.
func TestSearch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Loopback: true})
	e.importAll()
	l := decode[searchList](t, e.get("/search?q=permission+agent:claude&limit=1"), 200)
	if l.Query != "permission agent:claude" || len(l.Results) != 1 || l.Limit != 1 || l.NextOffset == nil || *l.NextOffset != 1 {
		t.Fatalf("search: %+v", l)
	}
	hit := l.Results[0]
	if hit.Session.FileName != "rework-2-d4e5f6.jsonl" || hit.Session.ToolCalls != nil || len(hit.Matches) == 0 {
		t.Fatalf("hit %s with %d calls and %d matches", hit.Session.Key(), len(hit.Session.ToolCalls), len(hit.Matches))
	}
	for _, m := range hit.Matches {
		if len(m.Marks) == 0 || !strings.EqualFold(m.Snippet[m.Marks[0][0]:m.Marks[0][1]], "permission") || len(m.Snippet) > searchSnippetBytes {
			t.Errorf("match %+v", m)
		}
	}
	if l := decode[searchList](t, e.get("/search?q=agent:codex"), 200); len(l.Results) != 1 || len(l.Results[0].Matches) != 0 {
		t.Errorf("a search of filters only: %+v", l)
	}
	if l := decode[searchList](t, e.get("/search?q=zebra"), 200); l.Results == nil || len(l.Results) != 0 {
		t.Errorf("no match: %+v", l)
	}
	e.wantError(e.get("/search"), http.StatusBadRequest, CodeInvalidParameter)
	e.wantError(e.get("/search?q=since:soon"), http.StatusBadRequest, CodeInvalidParameter)
	e.wantError(e.get("/search?q=x&limit=0"), http.StatusBadRequest, CodeInvalidLimit)
	e.wantError(e.get("/search?q=x&sort=nope"), http.StatusBadRequest, CodeInvalidParameter)
}

// TestSearchBounds: a search sent to cost the server time or memory is
// answered 400 naming the bound it passed, never 500 and never run (on
// both backends: TestAPIOnPostgres runs it again); a cross-site page may
// not read (Hardening II, items 4 and 13).
func TestSearchBounds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Loopback: true})
	e.importAll()
	q := func(s string) string { return "/search?q=" + url.QueryEscape(s) }
	var words, filters []string
	for i := range 33 {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	for i := range 1500 {
		filters = append(filters, fmt.Sprintf("agent:a%d", i))
	}
	for _, tc := range []struct{ query, want string }{
		{strings.Join(words, " "), "at most 32 terms and filters"},
		{strings.Join(filters, " "), "longer than 2048"},
		{strings.Repeat("a* ", 200), "at least 2 letters"},
		{strings.Repeat("x", 48<<10), "longer than 2048"},
	} {
		r := e.get(q(tc.query))
		e.wantError(r, http.StatusBadRequest, CodeInvalidParameter)
		if !strings.Contains(string(r.body), tc.want) {
			t.Errorf("%.40q: %s, want %q", tc.query, r.body, tc.want)
		}
	}
	// Repeats count once; a word longer than any indexed one is left out
	// rather than sent to the index (PostgreSQL refused a 3,000-letter
	// word with a 500).
	if l := decode[searchList](t, e.get(q(strings.Repeat("permission ", 100))), 200); len(l.Results) == 0 {
		t.Errorf("a repeated word: %+v", l)
	}
	decode[searchList](t, e.get(q("permission "+strings.Repeat("z", 3000)[:1500])), 200)
	r := e.do(http.MethodGet, q("permission"), "", "", "Sec-Fetch-Site", "cross-site")
	e.wantError(r, http.StatusForbidden, CodeForbidden)
	r = e.do(http.MethodGet, "/sessions", "", "", "Origin", "https://evil.example")
	e.wantError(r, http.StatusForbidden, CodeForbidden)
	decode[searchList](t, e.do(http.MethodGet, q("permission"), "", "", "Sec-Fetch-Site", "same-origin"), 200)
}
