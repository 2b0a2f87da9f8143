package textsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile holds one of each kind of sequence a stream may carry to take
// over a terminal or mislead a reader.
var hostile = []string{
	"\x1b[31mred\x1b[0m",                 // CSI colour
	"\x1b[2J\x1b[H",                      // clear screen, home
	"\x1b]0;pwned\x07",                   // OSC 0 title, BEL
	"\x1b]52;c;cHduZWQ=\x1b\\",           // OSC 52 clipboard, ST
	"\x1b]8;;https://evil.example\x07go", // OSC 8 hyperlink
	"\u009b31m",                          // C1 CSI as UTF-8
	"\x9b31m",                            // C1 CSI as a raw byte
	"del\x7f",                            // DEL
	"bs\x08\x08",                         // backspace
	"cr\roverwrite",                      // carriage return
	"\u202eevil\u202c",                   // right-to-left override
	"\u2066iso\u2069",                    // isolate
	"\u200fmark\u061c",                   // marks
	"sep\u2028line\u2029para",            // separators
}

// live reports the first character of s that must not reach a terminal.
func live(s string) (rune, bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n <= 1) || Unsafe(r) {
			return r, true
		}
		i += n
	}
	return 0, false
}

func TestInert(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"", ""},
		{"a\tb", "a    b"},
		{"\x1b[31mred", `\x1b[31mred`},
		{"bell\x07", `bell\x07`},
		{"\x1b]52;c;eA==\x1b\\", `\x1b]52;c;eA==\x1b\`},
		{"c1\u009b", `c1\u009b`},
		{"raw c1\x9b", `raw c1\x9b`},
		{"del\x7f", `del\x7f`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"two\nlines", `two\nlines`},
		{"\u202eevil", `\u202eevil`},
		{"\u2066x\u2069", `\u2066x\u2069`},
		{"\u200e\u200f\u061c", `\u200e\u200f\u061c`},
		{"a\u2028b", `a\u2028b`},
		{"日本 … é", "日本 … é"},
	}
	for _, tc := range tests {
		if got := Inert(tc.in); got != tc.want {
			t.Errorf("Inert(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, h := range hostile {
		if r, ok := live(Inert(h)); ok {
			t.Errorf("Inert(%q) keeps %U", h, r)
		}
	}
}

func TestInertLines(t *testing.T) {
	t.Parallel()
	got := InertLines("one\r\ntwo \x1b]0;t\x07\nthree")
	want := []string{"one", `two \x1b]0;t\x07`, "three"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("InertLines = %q, want %q", got, want)
	}
}

func TestTruncate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"eleven runes", 10, "eleven ru…"},
		{"日本語のテキストです", 5, "日本語の…"},
		// The escape of ESC is four runes: it goes whole or not at all.
		{"abcdef\x1b[31m", 8, "abcdef…"},
		{"abcdef\x1b[31m", 10, "abcdef…"},
		{"ab\x1b[31mred", 12, `ab\x1b[31mr…`},
		{"\x1b\x1b\x1b", 9, `\x1b\x1b…`},
		{"\x1b\x1b\x1b", 12, `\x1b\x1b\x1b`},
		{"x", 0, ""},
		{"xy", 1, "…"},
	}
	for _, tc := range tests {
		if got := Truncate(tc.in, tc.n); got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// checkTruncate holds the contract of Truncate for any input.
func checkTruncate(t *testing.T, s string, n int) {
	t.Helper()
	got := Truncate(s, n)
	if !utf8.ValidString(got) {
		t.Fatalf("Truncate(%q, %d) = %q is not UTF-8", s, n, got)
	}
	if c := utf8.RuneCountInString(got); c > max(n, 0) {
		t.Fatalf("Truncate(%q, %d) = %q has %d runes", s, n, got, c)
	}
	if r, ok := live(got); ok {
		t.Fatalf("Truncate(%q, %d) = %q keeps %U", s, n, got, r)
	}
	full := Inert(s)
	if rest, cut := strings.CutSuffix(got, Ellipsis); cut && got != full {
		// What is kept is a prefix of the inert text that ends between
		// two escaped characters, never inside one.
		if !strings.HasPrefix(full, rest) {
			t.Fatalf("Truncate(%q, %d) = %q is not a prefix of %q", s, n, got, full)
		}
		if !boundary(s, rest) {
			t.Fatalf("Truncate(%q, %d) = %q cuts inside an escape", s, n, got)
		}
	} else if n > 0 && got != full {
		t.Fatalf("Truncate(%q, %d) = %q, want %q", s, n, got, full)
	}
}

// boundary reports whether prefix is the inert form of a prefix of s.
func boundary(s, prefix string) bool {
	var b strings.Builder
	for i := 0; i < len(s); {
		if b.String() == prefix {
			return true
		}
		u, n := unit(s[i:])
		b.WriteString(u)
		i += n
	}
	return b.String() == prefix
}

func TestTruncateContract(t *testing.T) {
	t.Parallel()
	for _, h := range hostile {
		for n := 0; n <= utf8.RuneCountInString(Inert(h))+1; n++ {
			checkTruncate(t, h, n)
		}
	}
}

func FuzzTruncate(f *testing.F) {
	for _, h := range hostile {
		f.Add(h, 7)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		checkTruncate(t, s, n%200)
	})
}
