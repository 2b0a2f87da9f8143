package agents

import (
	"bytes"
	"testing"

	json "github.com/goccy/go-json"
)

// decodedString is what decoding a raw value into a string gives: the
// reference lineTexts.text must match.
func decodedString(raw []byte) (string, bool) {
	var s string
	if len(raw) == 0 {
		return "", true
	}
	return s, json.UnmarshalOf(raw, &s, json.DecodeNoCopyString()) == nil
}

// checkLineTexts compares lineTexts.text, lent and not, with the decoder
// on one raw value: a raw value is one JSON value without surrounding
// space, as a json.RawMessage field holds it.
func checkLineTexts(t *testing.T, raw []byte) {
	t.Helper()
	if !bytes.Equal(bytes.TrimSpace(raw), raw) {
		return
	}
	want, wantOK := decodedString(raw)
	for _, lent := range []bool{false, true} {
		l := &Lender{}
		sc := &Scratch{}
		if lent {
			l.lendFrom(sc)
		}
		lt := &sc.texts
		lt.buf = append(lt.buf, "earlier text of the line"...)
		got, ok := l.Text(raw)
		if ok != wantOK || ok && got != want {
			t.Fatalf("lent %v: %q gives %q %v, the decoder %q %v", lent, raw, got, ok, want, wantOK)
		}
		if string(lt.buf[:24]) != "earlier text of the line" {
			t.Fatalf("lent %v: %q overwrote the line's earlier text", lent, raw)
		}
	}
}

// TestLineTextsMatchesTheDecoder: a string read from a raw value is the
// one the decoder reads, escapes, invalid UTF-8 and non-strings included.
func TestLineTextsMatchesTheDecoder(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		``, `null`, `""`, `"plain"`, `"a\nb\tc\\d\"e\/f\bg\fh\ri"`, `"\u00e9t\u00C9 \u2603 \u0000"`,
		`"\ud83d\ude00 pair"`, `"\ud83d lone"`, `"\ude00 lone low"`, `"\x"`, `"\u12"`, `"\u12g4"`,
		"\"raw \x01 control\"", "\"bad \xff utf8\"", "\"ok é utf8\"", `"trailing\"`, `"a"b"`,
		`12`, `true`, `{"a":1}`, `["x"]`, `"\`, `"`, `nul`,
	} {
		checkLineTexts(t, []byte(raw))
	}
}

// FuzzLineTexts: on any raw value, lineTexts.text reads what the decoder
// reads.
func FuzzLineTexts(f *testing.F) {
	f.Add([]byte(`"a\n\u00e9\ud83d\ude00"`))
	f.Add([]byte("\"\xe2\x82\""))
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkLineTexts(t, raw)
	})
}

// TestSpecialFindsTheFirstByteToDecode: special stops at the first byte a
// plain copy must not take, wherever it is among the eight a word holds.
func TestSpecialFindsTheFirstByteToDecode(t *testing.T) {
	t.Parallel()
	for _, c := range []byte{0, 0x1f, '"', '\\', 0x80, 0xff} {
		for n := range 20 {
			for at := 0; at <= n; at++ {
				b := bytes.Repeat([]byte{'a'}, n)
				want := n
				if at < n {
					b[at], want = c, at
				}
				if got := special(b); got != want {
					t.Fatalf("byte %#x at %d of %d: special says %d", c, at, n, got)
				}
			}
		}
	}
	if got := special([]byte(" !#[]~\x7f plain")); got != 13 {
		t.Errorf("plain ASCII stops at %d", got)
	}
}
