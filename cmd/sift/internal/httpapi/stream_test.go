package httpapi

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func TestStreamRaw(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	want, err := os.ReadFile(filepath.Join(e.logs, "wi-1", "work-1-a1b2c3.jsonl"))
	must(t, err)
	r := e.get("/workitems/wi-1/agent-streams/work-1-a1b2c3.jsonl")
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("content type %q, want application/x-ndjson", ct)
	}
	if !bytes.Equal(r.body, want) {
		t.Errorf("body differs from the file: %d bytes, want %d", len(r.body), len(want))
	}
	if r.header.Get("Last-Modified") == "" {
		t.Error("no Last-Modified")
	}
	head := e.do(http.MethodHead, "/workitems/wi-1/agent-streams/work-1-a1b2c3.jsonl", "", "")
	if head.status != 200 || len(head.body) != 0 || head.header.Get("Content-Length") != itoa(len(want)) {
		t.Errorf("HEAD: status %d, %d body bytes, length %q", head.status, len(head.body), head.header.Get("Content-Length"))
	}
	// A colon of an audit phase may come percent-encoded.
	if r := e.raw("/workitems/wi-1/agent-streams/audit-llm-security%3Allm-review-2-0a1b2c.jsonl"); r.status != 200 {
		t.Errorf("encoded colon: status %d: %s", r.status, r.body)
	}
	e.wantError(e.get("/workitems/wi-1/agent-streams/nope-1-000000.jsonl"), 404, CodeNotFound)
	e.wantError(e.get("/workitems/wi-2/agent-streams/work-1-a1b2c3.jsonl"), 404, CodeNotFound)
}

// TestStreamLargeFileChunks serves a file much larger than one chunk and
// checks it arrives whole.
func TestStreamLargeFileChunks(t *testing.T) {
	e := newEnv(t, Options{Loopback: true})
	var b bytes.Buffer
	for i := 0; b.Len() < 3<<20; i++ {
		b.WriteString(`{"type":"assistant","n":` + itoa(i) + "}\n")
	}
	must(t, os.WriteFile(filepath.Join(e.logs, "wi-1", "work-1-bigbig.jsonl"), b.Bytes(), 0o644))
	r := e.get("/workitems/wi-1/agent-streams/work-1-bigbig.jsonl")
	if r.status != 200 || !bytes.Equal(r.body, b.Bytes()) {
		t.Fatalf("status %d, %d bytes, want %d", r.status, len(r.body), b.Len())
	}
}

// TestStreamStalledClient connects, asks for a stream far larger than the
// socket buffers and never reads. The per-write deadline must end the
// handler and close the connection.
func TestStreamStalledClient(t *testing.T) {
	e := newEnv(t, Options{Loopback: true, WriteTimeout: 200 * time.Millisecond})
	f, err := os.Create(filepath.Join(e.logs, "wi-1", "work-1-ffffff.jsonl"))
	must(t, err)
	must(t, f.Truncate(64<<20))
	must(t, f.Close())

	closed := make(chan struct{})
	e.srv.Close()
	e.srv = newUnstartedWithHook(e.api, closed)
	c, err := net.Dial("tcp", e.srv.Listener.Addr().String())
	must(t, err)
	defer c.Close()
	if tc, ok := c.(*net.TCPConn); ok {
		must(t, tc.SetReadBuffer(4096))
	}
	_, err = io.WriteString(c, "GET /workitems/wi-1/agent-streams/work-1-ffffff.jsonl HTTP/1.1\r\nHost: "+
		e.srv.Listener.Addr().String()+"\r\n\r\n")
	must(t, err)
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the server still holds the stream of a client that stopped reading")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestStreamSlowReader reads a stream slowly for several write timeouts
// in all: every chunk gets a fresh deadline, so a client that keeps
// reading is served to the end.
func TestStreamSlowReader(t *testing.T) {
	e := newEnv(t, Options{Loopback: true, WriteTimeout: 150 * time.Millisecond})
	want := bytes.Repeat([]byte(`{"type":"assistant"}`+"\n"), (2<<20)/21)
	must(t, os.WriteFile(filepath.Join(e.logs, "wi-1", "work-1-5a5a5a.jsonl"), want, 0o644))
	resp, err := e.srv.Client().Get(e.srv.URL + "/workitems/wi-1/agent-streams/work-1-5a5a5a.jsonl")
	must(t, err)
	defer resp.Body.Close()
	start := time.Now()
	var got bytes.Buffer
	buf := make([]byte, 64<<10)
	for {
		n, err := resp.Body.Read(buf)
		got.Write(buf[:n])
		if err == io.EOF {
			break
		}
		must(t, err)
		time.Sleep(25 * time.Millisecond)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("got %d bytes, want %d", got.Len(), len(want))
	}
	if el := time.Since(start); el < 3*150*time.Millisecond {
		t.Logf("read took only %v; the test proves less than it should", el)
	}
}
