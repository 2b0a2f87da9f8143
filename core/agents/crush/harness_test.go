package crush

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCrushDirs pins where Crush's sessions are looked for: the data
// folders of the projects its projects.json lists, in its global data
// folder ($CRUSH_GLOBAL_DATA, $XDG_DATA_HOME/crush, ~/.local/share/crush).
func TestCrushDirs(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	list := `{"projects":[{"path":"/src/a","data_dir":"/src/a/.crush"},{"path":"/src/b","data_dir":""},{"path":"/src/c","data_dir":"rel"}]}`
	for _, d := range []string{".local/share/crush", "x/crush", "c"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, d := range []string{".local/share/crush", "x/crush", "c"} {
		// Each folder's list names a project of its own first.
		l := `{"projects":[{"path":"/p` + string(rune('0'+i)) + `","data_dir":"/p` + string(rune('0'+i)) + `/.crush"}]}`
		if d == ".local/share/crush" {
			l = list
		}
		if err := os.WriteFile(filepath.Join(home, d, "projects.json"), []byte(l), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		env  map[string]string
		want []string
	}{
		{nil, []string{"/src/a/.crush", "/src/b/.crush"}},
		{map[string]string{"XDG_DATA_HOME": filepath.Join(home, "x")}, []string{"/p1/.crush"}},
		{map[string]string{"CRUSH_GLOBAL_DATA": filepath.Join(home, "c"), "XDG_DATA_HOME": filepath.Join(home, "x")}, []string{"/p2/.crush"}},
	} {
		if got := crushDirs(func(k string) string { return tc.env[k] }, home); !slices.Equal(got, tc.want) {
			t.Errorf("%v: %v, want %v", tc.env, got, tc.want)
		}
	}
	if got := crushDirs(func(string) string { return "" }, t.TempDir()); got != nil {
		t.Errorf("no projects.json: %v", got)
	}
}
