package retention

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/core/layout"
)

// The sweep's tests are in sweep_test.go (package capture_test, which may
// import core/config); these two need its insides.

// oldLayoutFile writes a capture-layout file under root last written age
// ago.
func oldLayoutFile(t *testing.T, root, rel string, age time.Duration) string {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mt := time.Now().Add(-age)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
	return p
}

// sweptRoot is a logs folder sift created and marked.
func sweptRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "logs")
	if _, err := layout.MakeRoot(root); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestSweepFailureIsLoud: a file that cannot be deleted is a failure
// naming it, returned, and the sweep goes on past it; a logs root that
// does not exist yet is no failure.
func TestSweepFailureIsLoud(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := sweptRoot(t)
	a := oldLayoutFile(t, root, "wi/work-1-00000a.jsonl", 30*24*time.Hour)
	b := oldLayoutFile(t, root, "wi/work-1-00000b.jsonl", 30*24*time.Hour)
	spec := SweepSpec{Root: root, RetainFor: 24 * time.Hour, Now: time.Now().Add(time.Hour)}
	spec.remove = func(dir *os.Root, name string) error {
		if filepath.Join(dir.Name(), name) == a {
			return &os.PathError{Op: "remove", Path: name, Err: syscall.EROFS}
		}
		return dir.Remove(name)
	}
	res, err := Sweep(ctx, spec)
	if err == nil || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), "read-only file system") {
		t.Fatalf("sweep error %v, want one naming %s", err, a)
	}
	if exists(b) || !exists(a) || res.FilesDeleted != 1 || len(res.Failures) != 1 {
		t.Fatalf("the pass did not go on past the failure: %+v", res)
	}
	if _, err := Sweep(ctx, SweepSpec{Root: filepath.Join(root, "nope"), RetainFor: time.Hour}); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("sweep of a missing logs root: %v", err)
	}
}

// TestSweepRemovalDoesNotFollowASwappedLink swaps a work item folder for a
// link to an outside folder holding a file of the same name between the
// listing and the removal: the removal refuses, the outside file stays.
func TestSweepRemovalDoesNotFollowASwappedLink(t *testing.T) {
	t.Parallel()
	spec := &SweepSpec{remove: (*os.Root).Remove}
	root := sweptRoot(t)
	outside := filepath.Join(t.TempDir(), "outside")
	victim := oldLayoutFile(t, outside, "work-1-a1b2c3.jsonl", 0)
	oldLayoutFile(t, root, "wi/work-1-a1b2c3.jsonl", time.Hour)
	rt, err := openLogsRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	var res SweepResult
	files := layoutFiles(rt, root, &res)
	if len(files) != 1 {
		t.Fatalf("listed %+v", files)
	}
	if err := os.RemoveAll(filepath.Join(root, "wi")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "wi")); err != nil {
		t.Fatal(err)
	}
	if err := spec.removeLayoutFile(rt, files[0]); err == nil {
		t.Error("removal through a swapped-in link succeeded")
	}
	if !exists(victim) {
		t.Fatal("a file outside the root was removed through a link")
	}
	// A root swapped for a link after the check is refused at open.
	other := sweptRoot(t)
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, root); err != nil {
		t.Fatal(err)
	}
	if _, err := openLogsRoot(root); err == nil {
		t.Error("a linked root was opened")
	}
}

// exists reports whether a path is there.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
