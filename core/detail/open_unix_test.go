//go:build unix

package detail

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A session row's path is data: a re-read of a stream never opens a FIFO
// or a device (it would block or never end) (Hardening II, item 3).
func TestStreamReadsOnlyRegularFiles(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "s.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	for _, p := range []string{fifo, "/dev/zero"} {
		if _, err := (Reader{}).Read(p, "claude"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Read(%s) = %v, want a refusal", p, err)
		}
		if _, err := (Reader{}).RawLines(p, nil, 1, 2); err == nil {
			t.Errorf("RawLines(%s) read it", p)
		}
	}
}
