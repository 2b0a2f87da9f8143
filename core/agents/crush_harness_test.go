package agents

import (
	"slices"
	"testing"
)

// TestCrushDirs pins where Crush's projects.json is looked for.
func TestCrushDirs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "/h/.local/share/crush"},
		{map[string]string{"XDG_DATA_HOME": "/x"}, "/x/crush"},
		{map[string]string{"CRUSH_GLOBAL_DATA": "/c", "XDG_DATA_HOME": "/x"}, "/c"},
	} {
		if got := crushDirs(func(k string) string { return tc.env[k] }, "/h"); !slices.Equal(got, []string{tc.want}) {
			t.Errorf("%v: %v, want %s", tc.env, got, tc.want)
		}
	}
}
