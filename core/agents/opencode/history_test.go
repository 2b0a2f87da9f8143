package opencode

import (
	"slices"
	"testing"
)

// TestOpenCodeHistoryDirs pins where opencode's sessions are looked for:
// its data folder under $XDG_DATA_HOME or ~/.local/share, and a database
// $OPENCODE_DB names elsewhere (a relative name is under the data folder,
// which is read already).
func TestOpenCodeHistoryDirs(t *testing.T) {
	t.Parallel()
	h := opencodeHistory()
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"home", nil, []string{"/h/.local/share/opencode"}},
		{"xdg", map[string]string{"XDG_DATA_HOME": "/x"}, []string{"/x/opencode"}},
		{"a database elsewhere", map[string]string{"OPENCODE_DB": "/d/o.db"}, []string{"/h/.local/share/opencode", "/d/o.db"}},
		{"a channel's database", map[string]string{"OPENCODE_DB": "opencode-dev.db"}, []string{"/h/.local/share/opencode"}},
		{"in memory", map[string]string{"OPENCODE_DB": ":memory:"}, []string{"/h/.local/share/opencode"}},
	} {
		got := h.Dirs(func(k string) string { return tc.env[k] }, "/h")
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
