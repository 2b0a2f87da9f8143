package review

import "testing"

func TestLabel(t *testing.T) {
	t.Parallel()
	two := 2
	for _, tc := range []struct {
		name, phase string
		iter        *int
		want        string
	}{
		{"phase and iteration", "rework", &two, "ENG-1 · rework-2"},
		{"no iteration", "work", nil, "ENG-1 · work"},
		{"unknown phase", "", nil, "ENG-1 · ?"},
	} {
		if got := Label("ENG-1", tc.phase, tc.iter); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
