package tui

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// The inbox re-reads a stream only through the program's opener, which
// keeps to sift's folders (Hardening II, item 3).
func TestStreamReadsThroughTheProgramsOpener(t *testing.T) {
	var asked []string
	refuse := func(path string) (*os.File, error) {
		asked = append(asked, path)
		return nil, errors.New("outside sift's folders")
	}
	c := newCommon(Options{OpenStream: refuse}, mustPalette(t))
	if _, err := c.Detail.Read("/etc/passwd", "claude"); err == nil || !strings.Contains(err.Error(), "outside sift's folders") {
		t.Errorf("Read = %v, want the opener's refusal", err)
	}
	if _, err := c.Detail.RawLines("/etc/passwd", nil, 1, 2); err == nil {
		t.Error("RawLines read past the opener")
	}
	if len(asked) != 2 {
		t.Errorf("the opener was asked %d times, want 2", len(asked))
	}
}
