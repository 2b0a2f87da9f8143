package capture

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// fakeBin writes an executable shell script name into dir and returns its
// path.
func fakeBin(t testing.TB, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// syncBuffer is a bytes.Buffer safe for the exec copy goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// readLines returns the lines of a file.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// fileName is the shape of a stream file's name.
var fileName = regexp.MustCompile(`^(.+)-([0-9]+)-[0-9a-f]{12}\.jsonl$`)

// spec returns a Spec for a fake agent with capture under a temp root.
func spec(t *testing.T, cli CLI, bin string, args ...string) (Spec, *syncBuffer, *syncBuffer) {
	t.Helper()
	var out, errb syncBuffer
	return Spec{
		CLI: cli, Binary: bin, Args: args, Enabled: true,
		Root: filepath.Join(t.TempDir(), "logs"), WorkItem: "wi-1", Phase: "work", Iteration: 1,
		MaxFileBytes: 32 << 20, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Prober: Prober{CacheDir: t.TempDir()},
	}, &out, &errb
}

func mustCLI(t testing.TB, name string) CLI {
	t.Helper()
	c, err := LookupCLI(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
