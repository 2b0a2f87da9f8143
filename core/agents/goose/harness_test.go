package goose

import (
	"runtime"
	"slices"
	"testing"
)

// TestGooseDirs pins where Goose's sessions database is looked for.
func TestGooseDirs(t *testing.T) {
	t.Parallel()
	def := "/h/.local/share/goose/sessions"
	if runtime.GOOS == "darwin" {
		def = "/h/Library/Application Support/Block/goose/sessions"
	}
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{nil, def},
		{map[string]string{"GOOSE_PATH_ROOT": "/g"}, "/g/data/sessions"},
	} {
		if got := gooseDirs(func(k string) string { return tc.env[k] }, "/h"); !slices.Equal(got, []string{tc.want}) {
			t.Errorf("%v: %v, want %s", tc.env, got, tc.want)
		}
	}
	if runtime.GOOS != "darwin" {
		if got := gooseDirs(func(k string) string { return map[string]string{"XDG_DATA_HOME": "/x"}[k] }, "/h"); !slices.Equal(got, []string{"/x/goose/sessions"}) {
			t.Errorf("XDG_DATA_HOME: %v", got)
		}
	}
}
