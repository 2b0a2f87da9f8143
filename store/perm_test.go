package store

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/agentsift/sift/core/review"
)

// withUmask runs the rest of a test under a umask, restored after. The
// umask is the process's: a test that uses it must not run in parallel.
func withUmask(t *testing.T, mask int) {
	t.Helper()
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}

// mode is a file's permission bits.
func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestOpenCreatesPrivateFiles opens a new store under umask 0, where
// anything created with the usual 0644 and 0755 is world-readable, and
// writes to it: the folders it creates are 0700 and the database, its
// WAL and its shared-memory file 0600.
func TestOpenCreatesPrivateFiles(t *testing.T) {
	withUmask(t, 0)
	dir := t.TempDir()
	path := filepath.Join(dir, "data", "sift", "sift.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	copyFile(t, filepath.Join(fixtures, "claude", "evolve-2.1.7-run1-write-file.jsonl"), filepath.Join(dir, "logs", "wi-1", "work-1-a1b2c3.jsonl"))
	mustImport(t, s, filepath.Join(dir, "logs"))
	if err := s.Decide(context.Background(), review.Decision{Session: review.SessionKey{WorkItemID: "wi-1", FileName: "work-1-a1b2c3.jsonl"},
		Kind: review.Reviewed, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(dir, "data"), filepath.Join(dir, "data", "sift")} {
		if m := mode(t, d); m != 0o700 {
			t.Errorf("%s: mode %v, want 0700", d, m)
		}
	}
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		if m := mode(t, f); m != 0o600 {
			t.Errorf("%s: mode %v, want 0600", f, m)
		}
	}
}

// TestOpenLeavesAnExistingDatabaseAlone opens a database that exists with
// looser modes: Open does not change them behind the user's back (sift
// doctor reports them), and the WAL follows the database's mode.
func TestOpenLeavesAnExistingDatabaseAlone(t *testing.T) {
	withUmask(t, 0)
	dir := t.TempDir()
	path := filepath.Join(dir, "shared", "sift.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, p := range []string{path + "-wal", path + "-shm"} {
		os.Remove(p)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	copyFile(t, filepath.Join(fixtures, "claude", "evolve-2.1.7-run1-write-file.jsonl"), filepath.Join(dir, "logs", "wi-1", "work-1-a1b2c3.jsonl"))
	mustImport(t, s, filepath.Join(dir, "logs"))
	if m := mode(t, path); m != 0o644 {
		t.Errorf("database: mode %v, want it left at 0644", m)
	}
	if m := mode(t, filepath.Dir(path)); m != 0o755 {
		t.Errorf("folder: mode %v, want it left at 0755", m)
	}
	if m := mode(t, path+"-wal"); m != 0o644 {
		t.Errorf("WAL: mode %v, want the database's 0644", m)
	}
}
