package view

import (
	"bytes"
	"strings"
	"testing"
)

// TestStringIsAView: a string from String shows what its buffer holds, so
// that a view kept past the buffer's release shows the scribble, and a
// copy taken before it does not.
func TestStringIsAView(t *testing.T) {
	t.Parallel()
	buf := []byte("sk-secret of another file")
	v := String(buf[3:9])
	kept := strings.Clone(v)
	if v != "secret" {
		t.Fatalf("String = %q", v)
	}
	Scribble(buf)
	if v == "secret" {
		t.Error("a view did not change with its buffer: String copied")
	}
	if kept != "secret" {
		t.Errorf("a copy changed with the buffer: %q", kept)
	}
	if String(nil) != "" || String(buf[:0]) != "" {
		t.Error("an empty buffer's view is not empty")
	}
}

// TestWithin tells a view of a buffer from a copy of its text and from
// views of its neighbours.
func TestWithin(t *testing.T) {
	t.Parallel()
	arr := []byte("0123456789")
	b := arr[2:8]
	for _, tc := range []struct {
		name string
		s    string
		want bool
	}{
		{"whole", String(b), true},
		{"first byte", String(b[:1]), true},
		{"last byte", String(b[5:]), true},
		{"a copy", string(b), false},
		{"empty", String(b[:0]), false},
		{"before", String(arr[1:3]), false},
		{"after", String(arr[8:]), false},
		{"a constant", "234567", false},
	} {
		if got := Within(tc.s, b); got != tc.want {
			t.Errorf("%s: Within = %v, want %v", tc.name, got, tc.want)
		}
	}
	if Within("x", nil) {
		t.Error("a string lies within an empty buffer")
	}
}

// TestScribble overwrites every byte, up to the capacity it is given.
func TestScribble(t *testing.T) {
	t.Parallel()
	b := make([]byte, 4, 8)
	copy(b[:8], "password")
	Scribble(b[:cap(b)])
	if !bytes.Equal(b[:8], []byte("~~~~~~~~")) {
		t.Errorf("Scribble left %q", b[:8])
	}
}
