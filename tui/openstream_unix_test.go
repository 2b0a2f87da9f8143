//go:build unix

package tui

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentsift/sift/core/agents"
)

// A session row's path is data: the inbox's re-read of a stream never
// opens a FIFO or a device (it would block or never end), and goes
// through the program's opener when it has one (Hardening II, item 3).
func TestStreamReadsOnlyRegularFiles(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "s.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	for _, p := range []string{fifo, "/dev/zero"} {
		if _, err := parseDetail(agents.Default(), openRegular, p, "claude"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("parseDetail(%s) = %v, want a refusal", p, err)
		}
		if _, err := rawLines(openRegular, p, nil, 1, 2); err == nil {
			t.Errorf("rawLines(%s) read it", p)
		}
	}
	c := newCommon(Options{}, mustPalette(t))
	if c.OpenStream == nil {
		t.Fatal("no opener by default")
	}
}
