package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/store"
	"github.com/agentsift/sift/store/pgtest"
)

// fixtures is the repository's recorded streams, relative to this package.
const fixtures = "../../../../testdata/streams"

// env is one API under test: a logs root with captured streams, a real
// store in a temporary directory and a listening test server.
type env struct {
	t       *testing.T
	logs    string
	outside string
	store   *store.Store
	api     *Server
	srv     *httptest.Server
}

// newEnv starts an API on loopback with the given options (Store and
// LogsDir are filled in). The logs root holds wi-1 with two claude
// captures and a codex capture; outside the root lies a secret file.
func newEnv(t *testing.T, opt Options) *env {
	t.Helper()
	dir := t.TempDir()
	e := &env{t: t, logs: filepath.Join(dir, "logs", "agents"), outside: filepath.Join(dir, "outside")}
	for _, d := range []string{filepath.Join(e.logs, "wi-1"), e.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.copyFixture("claude/evolve-2.1.7-run1-write-file.jsonl", "wi-1", "work-1-a1b2c3.jsonl")
	e.copyFixture("claude/vincent-2.1.226-permission-denied-tool-error.jsonl", "wi-1", "rework-2-d4e5f6.jsonl")
	e.copyFixture("codex/vincent-0.147.0-reasoning.jsonl", "wi-1", "audit-llm-security:llm-review-2-0a1b2c.jsonl")
	if err := os.WriteFile(filepath.Join(e.outside, "secret.jsonl"), []byte(`{"secret":"TOP-SECRET"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "sift.db")
	if pgtest.OnPostgres() {
		db = pgtest.New(t)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e.store = st
	opt.Store, opt.LogsDir = st, e.logs
	api, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	e.api = api
	e.srv = httptest.NewServer(api)
	t.Cleanup(e.srv.Close)
	return e
}

// copyFixture copies a recorded stream into the logs root, writable.
func (e *env) copyFixture(src, workItem, name string) string {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, src))
	if err != nil {
		e.t.Fatal(err)
	}
	dst := filepath.Join(e.logs, workItem, name)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		e.t.Fatal(err)
	}
	return dst
}

// reply is a response read whole.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request to the test server.
func (e *env) do(method, target, contentType, body string, hdr ...string) reply {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+target, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return reply{resp.StatusCode, resp.Header, b}
}

// get is a GET.
func (e *env) get(target string) reply {
	e.t.Helper()
	return e.do(http.MethodGet, target, "", "")
}

// raw sends a request line byte for byte, as no client library would,
// and reads the response.
func (e *env) raw(target string) reply {
	e.t.Helper()
	c, err := net.Dial("tcp", e.srv.Listener.Addr().String())
	if err != nil {
		e.t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET "+target+" HTTP/1.1\r\nHost: "+e.srv.Listener.Addr().String()+"\r\nConnection: close\r\n\r\n"); err != nil {
		e.t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, b}
}

// wantError checks a JSON error reply: status, code, content type, and
// that no filesystem path of the test leaks into it.
func (e *env) wantError(r reply, status int, code Code) {
	e.t.Helper()
	if r.status != status {
		e.t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		e.t.Fatalf("error content type %q, want application/json", ct)
	}
	var ae apiError
	if err := json.Unmarshal(r.body, &ae); err != nil {
		e.t.Fatalf("error body is not JSON: %s", r.body)
	}
	if ae.Code != code {
		e.t.Fatalf("code %q, want %q (message %q)", ae.Code, code, ae.Message)
	}
	e.noLeak(r)
}

// noLeak fails when a reply names a path of the test or the secret.
func (e *env) noLeak(r reply) {
	e.t.Helper()
	for _, s := range []string{e.logs, e.outside, filepath.Dir(e.logs), "TOP-SECRET", "/tmp"} {
		if strings.Contains(string(r.body), s) {
			e.t.Fatalf("reply leaks %q: %s", s, r.body)
		}
	}
}

// decode unmarshals a JSON reply after checking its status and type.
func decode[T any](t *testing.T, r reply, status int) T {
	t.Helper()
	var v T
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("content type %q, want application/json", ct)
	}
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
	return v
}

// newUnstartedWithHook starts a test server for h that closes closed when
// its first connection is closed by the server.
func newUnstartedWithHook(h http.Handler, closed chan struct{}) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	var once sync.Once
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateClosed || st == http.StateHijacked {
			once.Do(func() { close(closed) })
		}
	}
	srv.Start()
	return srv
}

// importAll imports the logs root into the store.
func (e *env) importAll() {
	e.t.Helper()
	res, err := ingest.Import(context.Background(), e.store, []string{e.logs}, ingest.Options{KeepEvents: retention.Policy{}.KeepsEvents}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	if len(res.Failed) > 0 {
		e.t.Fatalf("import failed: %v", res.Failed)
	}
}

// storeImportOptions are the import options of the tests.
func storeImportOptions() ingest.Options {
	return ingest.Options{Workers: 1, KeepEvents: retention.Policy{}.KeepsEvents}
}
