package httpapi

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/store"
)

// routes are a request to every endpoint of the API, and the status each
// answers when let through. The POST names a session newEnv's import
// holds.
var routes = []struct {
	method, target, body string
	status               int
}{
	{http.MethodGet, "/workitems/wi-1/agent-streams", "", 200},
	{http.MethodGet, "/workitems/wi-1/agent-streams?includeLineCount=true", "", 200},
	{http.MethodGet, "/workitems/wi-1/agent-streams/work-1-a1b2c3.jsonl", "", 200},
	{http.MethodHead, "/workitems/wi-1/agent-streams/work-1-a1b2c3.jsonl", "", 200},
	{http.MethodGet, "/workitems/wi-1/agent-streams/work-1-a1b2c3.jsonl/summary", "", 200},
	{http.MethodGet, "/sessions", "", 200},
	{http.MethodGet, "/sessions?full=true", "", 200},
	{http.MethodGet, "/search?q=permission", "", 200},
	{http.MethodGet, "/sessions/work-1/decisions", "", 200},
	{http.MethodGet, "/sessions/wi-1/work-1-a1b2c3.jsonl/decisions", "", 200},
	{http.MethodPost, "/decisions", `{"session":"work-1","decision":"reviewed","note":"fine"}`, 201},
}

// TestNonLoopbackNeedsToken refuses to make a server for a listener that
// is not loopback-only when no token is configured: it would serve
// prompts and outputs to anyone who can reach it.
func TestNonLoopbackNeedsToken(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "sift.db"))
	must(t, err)
	defer st.Close()
	for _, tok := range []string{"", "  "} {
		if api, err := New(Options{Store: st, LogsDir: dir, Token: tok}); err == nil {
			api.Close()
			t.Errorf("New without a token (%q) off loopback succeeded", tok)
		}
	}
	api, err := New(Options{Store: st, LogsDir: dir, Loopback: true})
	must(t, err)
	api.Close()
}

// TestEveryRouteNeedsTokenOffLoopback checks that, off loopback, every
// route but /healthz answers 401 without the bearer token or with a wrong
// one, and serves with it; unknown routes say no more than 401 either.
func TestEveryRouteNeedsTokenOffLoopback(t *testing.T) {
	e := newEnv(t, Options{Token: "s3cret-token"})
	e.importAll()
	auth := func(v string) []string { return []string{"Authorization", v} }
	for _, rt := range routes {
		for _, bad := range [][]string{nil, auth("Bearer wrong"), auth("Bearer s3cret-token-and-more"),
			auth("Bearer s3cret"), auth("Basic s3cret-token"), auth("s3cret-token"), auth("Bearer ")} {
			r := e.do(rt.method, rt.target, "application/json", rt.body, bad...)
			if r.status != http.StatusUnauthorized {
				t.Errorf("%s %s with %q: status %d, want 401; body %.200s", rt.method, rt.target, bad, r.status, r.body)
				continue
			}
			if r.header.Get("WWW-Authenticate") == "" {
				t.Errorf("%s %s: 401 without WWW-Authenticate", rt.method, rt.target)
			}
			if rt.method != http.MethodHead {
				e.wantError(r, http.StatusUnauthorized, CodeUnauthorized)
			}
		}
		r := e.do(rt.method, rt.target, "application/json", rt.body, auth("Bearer s3cret-token")...)
		if r.status != rt.status {
			t.Errorf("%s %s with the token: status %d, want %d; body %.200s", rt.method, rt.target, r.status, rt.status, r.body)
		}
	}
	e.wantError(e.get("/nope"), http.StatusUnauthorized, CodeUnauthorized)
	decode[map[string]any](t, e.get("/healthz"), 200)
}

// TestLoopbackReadsNeedNoToken keeps loopback as it was: reads need no
// token, the Host check holds, and a configured token guards writes.
func TestLoopbackReadsNeedNoToken(t *testing.T) {
	e := newEnv(t, Options{Loopback: true, Token: "s3cret-token"})
	e.importAll()
	for _, rt := range routes {
		r := e.do(rt.method, rt.target, "application/json", rt.body)
		want := rt.status
		if rt.method == http.MethodPost {
			want = http.StatusUnauthorized
		}
		if r.status != want {
			t.Errorf("%s %s on loopback: status %d, want %d; body %.200s", rt.method, rt.target, r.status, want, r.body)
		}
	}
}

// TestGetNeverWrites sends every GET, including summaries of a file the
// store has never seen and of one that grew since it was imported, and
// checks that the database holds exactly what it held before, on a
// loopback server and on a server with a token.
func TestGetNeverWrites(t *testing.T) {
	sqliteOnly(t, "it digests the database file")
	for _, opt := range []Options{{Loopback: true}, {Token: "s3cret-token"}} {
		t.Run(fmt.Sprintf("loopback=%v", opt.Loopback), func(t *testing.T) {
			e := newEnv(t, opt)
			e.importAll()
			e.copyFixture("claude/evolve-2.1.5-mcp-browser-use.jsonl", "wi-2", "work-1-eeeeee.jsonl")
			e.copyFixture("codex/vincent-turn-failed-model-400.jsonl", "wi-1", "work-3-fff000.jsonl")
			grow := filepath.Join(e.logs, "wi-1", "rework-2-d4e5f6.jsonl")
			f, err := os.OpenFile(grow, os.O_APPEND|os.O_WRONLY, 0)
			must(t, err)
			_, err = f.WriteString(`{"type":"assistant","message":{"id":"m-late","role":"assistant","content":[{"type":"text","text":"late"}]}}` + "\n")
			must(t, err)
			must(t, f.Close())

			before := dbDigest(t, e.store.Path())
			hdr := []string{"Authorization", "Bearer s3cret-token"}
			targets := []string{"/healthz", "/sessions", "/sessions?full=true&text=late",
				"/workitems/wi-1/agent-streams?includeLineCount=true", "/workitems/wi-2/agent-streams?includeLineCount=true",
				"/sessions/work-1/decisions", "/search?q=late+-zebra&limit=5"}
			for _, wi := range []string{"wi-1/work-1-a1b2c3.jsonl", "wi-1/rework-2-d4e5f6.jsonl", "wi-1/work-3-fff000.jsonl", "wi-2/work-1-eeeeee.jsonl"} {
				w, name, _ := strings.Cut(wi, "/")
				base := "/workitems/" + w + "/agent-streams/" + name
				targets = append(targets, base, base+"/summary", base+"/summary")
			}
			for _, target := range targets {
				if r := e.do(http.MethodGet, target, "", "", hdr...); r.status != 200 {
					t.Fatalf("GET %s: status %d; body %.200s", target, r.status, r.body)
				}
			}
			if after := dbDigest(t, e.store.Path()); after != before {
				t.Fatal("a GET changed the database")
			}
			// The summary of the grown file is current all the same.
			s := decode[struct{ LineCount int }](t, e.do(http.MethodGet, "/workitems/wi-1/agent-streams/rework-2-d4e5f6.jsonl/summary", "", "", hdr...), 200)
			if s.LineCount != 9 {
				t.Errorf("grown file: lineCount %d, want 9", s.LineCount)
			}
		})
	}
}

// dbDigest hashes every row of every table of the database at path,
// read through a connection of its own.
func dbDigest(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro")
	must(t, err)
	defer db.Close()
	ctx := context.Background()
	rows, err := db.QueryContext(ctx, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
	must(t, err)
	var tables []string
	for rows.Next() {
		var n string
		must(t, rows.Scan(&n))
		tables = append(tables, n)
	}
	must(t, rows.Err())
	rows.Close()
	h := sha256.New()
	total := 0
	for _, tb := range tables {
		rs, err := db.QueryContext(ctx, `SELECT * FROM "`+tb+`"`)
		must(t, err)
		cols, err := rs.Columns()
		must(t, err)
		var lines []string
		for rs.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			must(t, rs.Scan(ptrs...))
			lines = append(lines, fmt.Sprintf("%q", vals))
		}
		must(t, rs.Err())
		rs.Close()
		slices.Sort(lines)
		fmt.Fprintf(h, "%s %d\n%s\n", tb, len(lines), strings.Join(lines, "\n"))
		total += len(lines)
	}
	if total == 0 {
		t.Fatal("the database is empty: the digest would prove nothing")
	}
	return hex.EncodeToString(h.Sum(nil))
}
