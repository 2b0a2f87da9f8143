package review

import (
	"maps"
	"strings"
	"testing"
)

func TestProjectLabels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		folders []string
		want    map[string]string
	}{
		{"last part when it is the only one", []string{"/tmp/ccwork2", "/home/ana/src/sift"},
			map[string]string{"/tmp/ccwork2": "ccwork2", "/home/ana/src/sift": "sift"}},
		{"parent parts when two share the last", []string{"/home/ana/app", "/home/bob/app", "/srv/web"},
			map[string]string{"/home/ana/app": "ana/app", "/home/bob/app": "bob/app", "/srv/web": "web"}},
		{"as many parents as it takes", []string{"/a/x/src/app", "/b/x/src/app", "/c/app"},
			map[string]string{"/a/x/src/app": "a/x/src/app", "/b/x/src/app": "b/x/src/app", "/c/app": "c/app"}},
		{"a folder that is another's tail", []string{"/app", "/x/app"},
			map[string]string{"/app": "/app", "/x/app": "x/app"}},
		{"a folder listed twice is one", []string{"/x/app", "/x/app", ""},
			map[string]string{"/x/app": "app"}},
		{"windows separators", []string{`C:\src\app`, "/home/ana/app"},
			map[string]string{`C:\src\app`: "src/app", "/home/ana/app": "ana/app"}},
	} {
		if got := ProjectLabels(tc.folders); !maps.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestShortHash(t *testing.T) {
	t.Parallel()
	hash := strings.Repeat("3f", 32)
	got := ShortHash(hash)
	if len(got) != 9 || got[0] != '#' || strings.Contains(hash, got[1:]) {
		t.Errorf("ShortHash(%s) = %q: want # and 8 hex digits that are not the hash's own", hash, got)
	}
	if ShortHash("a") == ShortHash("b") || ShortHash("a") != ShortHash("a") {
		t.Error("ShortHash is not a function of its work item")
	}
}
