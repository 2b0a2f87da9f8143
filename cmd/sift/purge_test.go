package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPurgeCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	db, logs, other := filepath.Join(dir, "sift.db"), filepath.Join(dir, "logs"), filepath.Join(dir, "elsewhere")
	src, err := os.ReadFile(runFixture)
	if err != nil {
		t.Fatal(err)
	}
	capture := filepath.Join(logs, "wi-1", "work-1-a1b2c3.jsonl")
	foreign := filepath.Join(other, "proj", "run.jsonl")
	for _, p := range []string{capture, foreign} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, errOut, code := siftCmd(t, "init-logs", logs); code != 0 {
		t.Fatalf("init-logs: %d %q %q", code, out, errOut)
	}
	if out, errOut, code := siftCmd(t, "import", "--db", db, logs, other); code != 0 {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	for _, ref := range []string{"wi-1/work-1-a1b2c3.jsonl", "proj/run.jsonl"} {
		if out, errOut, code := siftCmd(t, "decide", "--db", db, ref, "--decision", "needs_followup", "--note", "look"); code != 0 {
			t.Fatalf("decide: %d %q %q", code, out, errOut)
		}
	}
	listed := func(name string) bool {
		out, _, _ := siftCmd(t, "list", "--db", db)
		return strings.Contains(out, name)
	}

	// Without --yes: what would go, a non-zero exit, nothing removed.
	out, _, code := siftCmd(t, "purge", "--db", db, "--logs", logs, "work-1-a1b2")
	if code == 0 || !strings.Contains(out, "would remove wi-1/work-1-a1b2c3.jsonl") ||
		!strings.Contains(out, "file "+capture+": will be deleted") || !strings.Contains(out, "decisions      1") {
		t.Fatalf("purge without --yes: %d %q", code, out)
	}
	if _, err := os.Stat(capture); err != nil || !listed("work-1-a1b2c3") {
		t.Fatalf("purge without --yes removed something: %v", err)
	}

	out, errOut, code := siftCmd(t, "purge", "--db", db, "--logs", logs, "work-1-a1b2", "--yes")
	if code != 0 || !strings.Contains(out, "file "+capture+": deleted") {
		t.Fatalf("purge --yes: %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(capture); !errors.Is(err, os.ErrNotExist) || listed("work-1-a1b2c3") {
		t.Fatalf("the capture session is still there: %v", err)
	}

	out, errOut, code = siftCmd(t, "purge", "--db", db, "--logs", logs, "proj/run.jsonl", "--yes")
	if code != 0 || !strings.Contains(out, "file "+foreign+": kept on disk") || !strings.Contains(out, "imports skip it") {
		t.Fatalf("purge of a file sift does not own: %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Fatalf("a file sift does not own was deleted: %v", err)
	}
	out, _, _ = siftCmd(t, "import", "--db", db, logs, other)
	if !strings.Contains(out, "1 purged") || listed("run.jsonl") {
		t.Fatalf("import brought a purged session back: %q", out)
	}
	if _, errOut, code := siftCmd(t, "purge", "--db", db, "--logs", logs, "proj/run.jsonl"); code == 0 || !strings.Contains(errOut, "not found") {
		t.Fatalf("purge of a purged session: %d %q", code, errOut)
	}
}
