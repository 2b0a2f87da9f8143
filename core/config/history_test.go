package config

import (
	"strings"
	"testing"
)

// TestHistoryOn: unset, History follows whether the store holds history
// sessions; set either way, it wins; anything but a boolean is refused, naming its line.
func TestHistoryOn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, yaml string
		held, want bool
	}{
		{"unset, no history stored", "", false, false},
		{"unset, history stored", "", true, true},
		{"on", "History: true\n", false, true},
		{"off though history is stored", "History: false\n", true, false},
	} {
		c, err := Parse([]byte(tc.yaml))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := c.HistoryOn(tc.held); got != tc.want {
			t.Errorf("%s: HistoryOn(%t) = %t, want %t", tc.name, tc.held, got, tc.want)
		}
	}
	if _, err := Parse([]byte("History: sometimes\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("History: sometimes: %v, want an error naming its line", err)
	}
}
