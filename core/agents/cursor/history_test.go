package cursor

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestCursorDirs: cursor-agent's chats are under its data folder,
// $CURSOR_DATA_DIR when set (blanks are no value), else ~/.cursor.
func TestCursorDirs(t *testing.T) {
	t.Parallel()
	home := filepath.FromSlash("/home/u")
	for _, c := range []struct{ env, want string }{
		{"", filepath.Join(home, ".cursor", "chats")},
		{"   ", filepath.Join(home, ".cursor", "chats")},
		{filepath.FromSlash("/tmp/lane/.cursor"), filepath.FromSlash("/tmp/lane/.cursor/chats")},
	} {
		getenv := func(k string) string {
			if k == "CURSOR_DATA_DIR" {
				return c.env
			}
			return ""
		}
		if got := cursorDirs(getenv, home); !slices.Equal(got, []string{c.want}) {
			t.Errorf("CURSOR_DATA_DIR=%q: %v, want %s", c.env, got, c.want)
		}
	}
}
