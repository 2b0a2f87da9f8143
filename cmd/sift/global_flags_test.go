package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestGlobalFlagsAndVersion: --db, --config and --logs go before or after
// any command, including those that use no store; sift version and
// --version print the same line, with the Go version.
func TestGlobalFlagsAndVersion(t *testing.T) {
	dir := t.TempDir()
	db, conf := filepath.Join(dir, "sift.db"), filepath.Join(dir, "sift.yaml")
	if err := os.WriteFile(conf, []byte("Reviewer: ana\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "logs"), 0o700); err != nil {
		t.Fatal(err)
	}
	stream := "../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl"
	for _, args := range [][]string{
		{"--db", db, "status"},
		{"--db=" + db, "--config", conf, "status"},
		{"status", "--db", db},
		{"--db", db, "prices"},
		{"prices", "--db", db},
		{"--db", db, "summary", stream},
		{"summary", stream, "--db", db, "--logs", dir},
		{"--db", db, "parse", "--stats", stream},
		{"--logs", dir, "init-logs", "--db", db, filepath.Join(dir, "logs")},
	} {
		if out, errOut, code := siftCmd(t, args...); code != 0 {
			t.Errorf("sift %s: exit %d %q %q", strings.Join(args, " "), code, errOut, out)
		}
	}
	v, _, code := siftCmd(t, "version")
	v2, _, code2 := siftCmd(t, "--version")
	if code != 0 || code2 != 0 || v != v2 || !strings.HasPrefix(v, "sift ") || !strings.Contains(v, runtime.Version()) {
		t.Errorf("version %q (%d), --version %q (%d)", v, code, v2, code2)
	}
}
