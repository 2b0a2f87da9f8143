package httpapi

import (
	"net/http"
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
