package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// waitFor polls until cond holds or the timeout passes.
func waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestServe starts `sift serve` on a free loopback port, reads through it,
// reloads its configuration, and stops it.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("Path: "+logs+"\nRetainedDays: 14\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(logs, "wi-1"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(logs, "wi-1", "work-1-a1b2c3.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- serve(ctx, []string{"--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "sift.db"), "--config", cfg}, &stdout, &stderr)
	}()
	addrRE := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)
	waitFor(t, "the listening line", 10*time.Second, func() bool { return addrRE.MatchString(stdout.String()) })
	base := addrRE.FindStringSubmatch(stdout.String())[1]

	for _, target := range []string{"/healthz", "/workitems/wi-1/agent-streams", "/workitems/wi-1/agent-streams/work-1-a1b2c3.jsonl/summary"} {
		resp, err := http.Get(base + target)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", target, resp.StatusCode)
		}
	}
	waitFor(t, "the start-up sweep", 5*time.Second, func() bool { return strings.Contains(stderr.String(), "Retention sweep") })

	// The watcher polls every 2 s; a changed retention setting reloads and
	// sweeps again.
	time.Sleep(1100 * time.Millisecond) // a new mtime second for coarse file systems
	if err := os.WriteFile(cfg, []byte("Path: "+logs+"\nRetainedDays: 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the reload", 8*time.Second, func() bool {
		return strings.Contains(stderr.String(), "reloaded") && strings.Count(stderr.String(), "Retention sweep") >= 2
	})
	// The test made the logs folder, so sift does not own it: every sweep
	// skips it, and says so once.
	if n := strings.Count(stderr.String(), "not swept"); n != 1 {
		t.Errorf("%d warnings about the unmarked logs folder, want 1:\n%s", n, stderr.String())
	}

	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit %d; stderr %s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestServeErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("Path: "+filepath.Join(dir, "logs")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "token")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--token-file", filepath.Join(dir, "missing")},
		{"--token-file", empty},
		{"--addr", "127.0.0.1:notaport"},
		{"extra-argument"},
	} {
		var stdout, stderr bytes.Buffer
		args = append(args, "--db", filepath.Join(dir, "sift.db"), "--config", cfg)
		code := serve(context.Background(), args, &stdout, &stderr)
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if code == 0 || !strings.HasPrefix(lines[len(lines)-1], "sift serve: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}

// nonLoopbackIP returns an IPv4 address of this machine that is not
// loopback, or "" when it has none.
func nonLoopbackIP(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	return ""
}

// TestServeOffLoopback starts `sift serve` on a non-loopback address of
// this machine: without a token it refuses to start with one error line;
// with one, every route but /healthz answers 401 without the token and
// serves with it. (Without such an address, the unit tests of httpapi
// cover the same rules with Loopback false.)
func TestServeOffLoopback(t *testing.T) {
	ip := nonLoopbackIP(t)
	if ip == "" {
		t.Skip("this machine has no non-loopback IPv4 address")
	}
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	cfg := filepath.Join(dir, "config.yaml")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(cfg, []byte("Path: "+logs+"\n"), 0o600))
	must(os.MkdirAll(filepath.Join(logs, "wi-1"), 0o700))
	b, err := os.ReadFile("../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl")
	must(err)
	must(os.WriteFile(filepath.Join(logs, "wi-1", "work-1-a1b2c3.jsonl"), b, 0o600))
	args := []string{"--addr", net.JoinHostPort(ip, "0"), "--db", filepath.Join(dir, "sift.db"), "--config", cfg}

	t.Setenv(tokenEnv, "")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	var stdout, stderr syncBuffer
	code := serve(ctx, args, &stdout, &stderr)
	cancel()
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if code == 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "sift serve: ") || !strings.Contains(lines[0], tokenEnv) ||
		strings.Contains(stdout.String(), "listening") {
		t.Fatalf("without a token: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}

	const token = "a-long-random-token"
	t.Setenv(tokenEnv, token)
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	stdout, stderr = syncBuffer{}, syncBuffer{}
	exit := make(chan int, 1)
	go func() { exit <- serve(ctx, args, &stdout, &stderr) }()
	addrRE := regexp.MustCompile(`listening on (http://[0-9.]+:\d+)`)
	waitFor(t, "the listening line", 10*time.Second, func() bool { return addrRE.MatchString(stdout.String()) })
	base := addrRE.FindStringSubmatch(stdout.String())[1]
	if !strings.Contains(base, ip) {
		t.Fatalf("listening on %s, want %s", base, ip)
	}
	get := func(target, auth string) int {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, base+target, nil)
		must(err)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		must(err)
		resp.Body.Close()
		return resp.StatusCode
	}
	if c := get("/healthz", ""); c != 200 {
		t.Errorf("/healthz without a token: %d", c)
	}
	for _, target := range []string{"/sessions", "/workitems/wi-1/agent-streams", "/workitems/wi-1/agent-streams/work-1-a1b2c3.jsonl",
		"/workitems/wi-1/agent-streams/work-1-a1b2c3.jsonl/summary"} {
		if c := get(target, ""); c != 401 {
			t.Errorf("GET %s without a token: %d, want 401", target, c)
		}
		if c := get(target, "Bearer not-"+token); c != 401 {
			t.Errorf("GET %s with a wrong token: %d, want 401", target, c)
		}
		if c := get(target, "Bearer "+token); c != 200 {
			t.Errorf("GET %s with the token: %d, want 200", target, c)
		}
	}
	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit %d; stderr %s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// TestServeCreatesPrivateFolders starts `sift serve` under umask 0 with a
// database and a logs folder that do not exist yet: it creates them
// readable by the user only.
func TestServeCreatesPrivateFolders(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	db := filepath.Join(dir, "data", "sift.db")
	logs := filepath.Join(dir, "logs")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- serve(ctx, []string{"--addr", "127.0.0.1:0", "--db", db, "--logs", logs}, &stdout, &stderr)
	}()
	waitFor(t, "the listening line", 10*time.Second, func() bool { return strings.Contains(stdout.String(), "listening on") })
	cancel()
	if code := <-exit; code != 0 {
		t.Fatalf("exit %d; stderr %s", code, stderr.String())
	}
	for path, want := range map[string]os.FileMode{filepath.Dir(db): 0o700, db: 0o600, logs: 0o700} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
}
