package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKilledRebuildForgetsNoRoot SIGKILLs a real `sift rebuild`, told only
// of one of the two roots imported, at several moments; after each, a
// second `sift rebuild` brings back every session of both roots, with its
// decision.
func TestKilledRebuildForgetsNoRoot(t *testing.T) {
	sift := e2eBuildSift(t)
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	db := filepath.Join(dir, "sift.db")
	roots := []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}
	var fixtures []string
	filepath.WalkDir("../../testdata/streams", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			fixtures = append(fixtures, p)
		}
		return nil
	})
	n := 0
	for copyNo := range 3 {
		for i, f := range fixtures {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(roots[(i+copyNo)%2], fmt.Sprintf("wi-%d", i), fmt.Sprintf("work-%d-%06x.jsonl", copyNo+1, i))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	for _, r := range roots {
		if out, errOut, code := siftCmd(t, "import", "--db", db, r); code != 0 {
			t.Fatalf("import %s: %d %q %q", r, code, out, errOut)
		}
	}
	// One decision in each root.
	for _, ref := range []string{"wi-0/work-1-000000.jsonl", "wi-0/work-2-000000.jsonl"} {
		if out, errOut, code := siftCmd(t, "decide", "--db", db, ref, "--decision", "needs_followup", "--note", "look"); code != 0 {
			t.Fatalf("decide %s: %d %q %q", ref, code, out, errOut)
		}
	}
	count := func() int {
		out, errOut, code := siftCmd(t, "list", "--db", db, "--limit", "0")
		if code != 0 {
			t.Fatalf("list: %d %q", code, errOut)
		}
		return strings.Count(out, "\n") - 1
	}
	if got := count(); got != n {
		t.Fatalf("%d sessions imported from %d files", got, n)
	}
	for _, delay := range []time.Duration{0, 20 * time.Millisecond, 60 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond} {
		cmd := exec.Command(sift, "rebuild", "--db", db, "--logs", roots[0])
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if out, errOut, code := siftCmd(t, "rebuild", "--db", db, "--logs", roots[0]); code != 0 {
			t.Fatalf("rebuild after a kill at %v: %d %q %q", delay, code, out, errOut)
		}
		if got := count(); got != n {
			t.Fatalf("rebuild killed at %v: %d sessions after the next rebuild, want %d", delay, got, n)
		}
		out, _, _ := siftCmd(t, "list", "--db", db, "--flagged", "--limit", "0")
		if strings.Count(out, "needs_followup") != 2 {
			t.Fatalf("rebuild killed at %v: decisions lost:\n%s", delay, out)
		}
	}
}
