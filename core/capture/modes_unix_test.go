//go:build unix

package capture

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFileModesIgnoreUmask checks that a stream file, its folders and the
// probe cache are private to the user (0600 files, 0700 folders) even
// under a permissive umask: they hold prompts, outputs and whatever
// secret redaction missed. It changes the process umask, so it does not
// run in parallel.
func TestFileModesIgnoreUmask(t *testing.T) {
	old := syscall.Umask(0)
	t.Cleanup(func() { syscall.Umask(old) })

	base := t.TempDir()
	root := filepath.Join(base, "logs", "agents")
	f, err := CreateFile(root, "wi-1", "work", 1)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	checkMode(t, f.Name(), 0o600)
	for _, d := range []string{filepath.Join(base, "logs"), root, filepath.Join(root, "wi-1")} {
		checkMode(t, d, fs.ModeDir|0o700)
	}

	cache := filepath.Join(base, "cache", "sift", "agy-probe.json")
	writeProbeCache(cache, "agy 1.0", true)
	checkMode(t, cache, 0o600)
	checkMode(t, filepath.Dir(cache), fs.ModeDir|0o700)
}

func checkMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode() & (fs.ModeDir | fs.ModePerm); got != want {
		t.Errorf("%s: mode %v, want %v", path, got, want)
	}
}
