package httpapi

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestListStreams(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	l := decode[streamList](t, e.get("/workitems/wi-1/agent-streams"), 200)
	if l.Total != 3 || len(l.Files) != 3 || l.Limit != DefaultLimit || l.Offset != 0 || l.NextOffset != nil {
		t.Fatalf("list = %+v", l)
	}
	byName := map[string]streamFile{}
	for _, f := range l.Files {
		byName[f.FileName] = f
		if f.LineCount != nil {
			t.Errorf("%s: lineCount without includeLineCount", f.FileName)
		}
		if f.Size <= 0 || f.LastWriteTime.IsZero() {
			t.Errorf("%s: size %d, lastWriteTime %v", f.FileName, f.Size, f.LastWriteTime)
		}
	}
	if f := byName["audit-llm-security:llm-review-2-0a1b2c.jsonl"]; f.Phase != "audit-llm-security:llm-review" ||
		f.Iteration == nil || *f.Iteration != 2 || f.AgentKind != "codex" {
		t.Errorf("audit file = %+v", f)
	}
	if f := byName["work-1-a1b2c3.jsonl"]; f.Phase != "work" || f.Iteration == nil || *f.Iteration != 1 || f.AgentKind != "claude" {
		t.Errorf("work file = %+v", f)
	}
	if strings.Contains(string(e.get("/workitems/wi-1/agent-streams").body), "lineCount") {
		t.Error("lineCount present without includeLineCount")
	}

	l = decode[streamList](t, e.get("/workitems/wi-1/agent-streams?includeLineCount=true"), 200)
	for _, f := range l.Files {
		// The counts of `wc -l` on the fixtures.
		want := map[string]int{"work-1-a1b2c3.jsonl": 5, "rework-2-d4e5f6.jsonl": 8,
			"audit-llm-security:llm-review-2-0a1b2c.jsonl": 8}[f.FileName]
		if f.LineCount == nil || *f.LineCount != want {
			t.Errorf("%s: lineCount %v, want %d", f.FileName, deref(f.LineCount), want)
		}
	}
	l = decode[streamList](t, e.get("/workitems/wi-1/agent-streams?includeLineCount=false"), 200)
	if l.Files[0].LineCount != nil {
		t.Error("lineCount with includeLineCount=false")
	}
	e.wantError(e.get("/workitems/wi-1/agent-streams?includeLineCount=maybe"), 400, CodeInvalidParameter)
}

func TestListLimit(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	for i := 0; i < 7; i++ {
		e.copyFixture("codex/vincent-turn-failed-model-400.jsonl", "wi-many", "work-1-00000"+itoa(i)+".jsonl")
	}
	l := decode[streamList](t, e.get("/workitems/wi-many/agent-streams?limit=3"), 200)
	if len(l.Files) != 3 || l.Total != 7 || l.NextOffset == nil || *l.NextOffset != 3 {
		t.Fatalf("limit=3: %d files, total %d, next %v", len(l.Files), l.Total, l.NextOffset)
	}
	l = decode[streamList](t, e.get("/workitems/wi-many/agent-streams?limit=3&offset=6"), 200)
	if len(l.Files) != 1 || l.NextOffset != nil {
		t.Fatalf("last page: %d files, next %v", len(l.Files), l.NextOffset)
	}
	l = decode[streamList](t, e.get("/workitems/wi-many/agent-streams?limit=500"), 200)
	if len(l.Files) != 7 || l.Limit != 500 {
		t.Fatalf("limit=500: %d files, limit %d", len(l.Files), l.Limit)
	}
	for _, bad := range []string{"0", "-1", "501", "1000000", "abc", "1.5", "", "10&limit=20", "%20"} {
		for _, path := range []string{"/workitems/wi-many/agent-streams", "/sessions", "/sessions/work-1/decisions"} {
			e.wantError(e.get(path+"?limit="+bad), 400, CodeInvalidLimit)
		}
	}
	e.wantError(e.get("/workitems/wi-many/agent-streams?offset=-1"), 400, CodeInvalidParameter)
}

func TestNoRoute(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	e.wantError(e.get("/nope"), 404, CodeNotFound)
	e.wantError(e.get("/"), 404, CodeNotFound)
	r := e.do(http.MethodPost, "/healthz", "application/json", "{}")
	e.wantError(r, 405, CodeMethodNotAllowed)
	if !strings.Contains(r.header.Get("Allow"), "GET") {
		t.Errorf("Allow = %q", r.header.Get("Allow"))
	}
	e.wantError(e.do(http.MethodDelete, "/decisions", "", ""), 405, CodeMethodNotAllowed)
}

func TestHostCheck(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+"/healthz", nil)
	must(t, err)
	req.Host = "evil.example:7777"
	resp, err := e.srv.Client().Do(req)
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("rebinding host: status %d, want 403", resp.StatusCode)
	}
	for _, h := range []string{"localhost:7777", "127.0.0.1", "[::1]:7777", "LOCALHOST"} {
		if !loopbackHost(h) {
			t.Errorf("loopbackHost(%q) = false", h)
		}
	}
}

func TestHealth(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	h := decode[map[string]any](t, e.get("/healthz"), 200)
	if h["status"] != "ok" || h["writes"] != true {
		t.Fatalf("healthz = %v", h)
	}
	e.store.Close()
	e.wantError(e.get("/healthz"), 503, CodeUnavailable)
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestCountLines(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	for content, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "\n\n": 2, "a\n\nb\n": 3} {
		must(t, os.WriteFile(filepath.Join(e.logs, "wi-1", "c.jsonl"), []byte(content), 0o644))
		n, err := e.api.countLines("wi-1", "c.jsonl")
		if err != nil || n != want {
			t.Errorf("countLines(%q) = %d, %v; want %d", content, n, err, want)
		}
	}
}

func TestPhaseOf(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"work-1-a1b2c3.jsonl":                          "work 1",
		"audit-llm-security:llm-review-3-d4e5f6.jsonl": "audit-llm-security:llm-review 3",
		"rework-2-789012.jsonl":                        "rework 2",
		"session.jsonl":                                "work <nil>",
		"work-1-A1B2C3.jsonl":                          "work <nil>",
		"work-x-a1b2c3.jsonl":                          "work <nil>",
		"work-+1-a1b2c3.jsonl":                         "work <nil>",
		"work-1-a1b2c3.txt":                            "work <nil>",
	} {
		p, it := phaseOf(name)
		if got := p + " " + fmt.Sprint(deref(it)); got != want {
			t.Errorf("phaseOf(%q) = %s, want %s", name, got, want)
		}
	}
}

func TestListenerAndServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer ln.Close()
	if !IsLoopbackListener(ln) {
		t.Error("127.0.0.1 is not loopback")
	}
	all, err := net.Listen("tcp", "0.0.0.0:0")
	must(t, err)
	defer all.Close()
	if IsLoopbackListener(all) {
		t.Error("0.0.0.0 is loopback")
	}
	srv := HTTPServer(DefaultAddr, http.NotFoundHandler())
	if srv.ReadHeaderTimeout <= 0 || srv.IdleTimeout <= 0 || srv.WriteTimeout != 0 {
		t.Errorf("timeouts: read header %v, idle %v, write %v", srv.ReadHeaderTimeout, srv.IdleTimeout, srv.WriteTimeout)
	}
	if DefaultAddr != "127.0.0.1:7777" {
		t.Errorf("DefaultAddr = %s", DefaultAddr)
	}
}

// TestReadHeaderTimeout holds a connection with half a request header:
// the server must drop it once ReadHeaderTimeout passes.
func TestReadHeaderTimeout(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	e.srv.Close()
	closed := make(chan struct{})
	srv := httptest.NewUnstartedServer(e.api)
	srv.Config = HTTPServer("", e.api)
	srv.Config.ReadHeaderTimeout = 200 * time.Millisecond
	var once sync.Once
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateClosed {
			once.Do(func() { close(closed) })
		}
	}
	srv.Start()
	defer srv.Close()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	must(t, err)
	defer c.Close()
	_, err = io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
	must(t, err)
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("a client that never finishes its header holds the connection")
	}
}
