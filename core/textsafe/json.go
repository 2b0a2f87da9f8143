package textsafe

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"
)

// AppendJSON appends the encoded JSON src to dst with every character
// that encoding/json leaves raw but a terminal or a reader would act on
// written as a \uNNNN escape: DEL, the C1 controls (U+0080–U+009F; U+009B
// is an 8-bit CSI to some terminals), the line separators and the
// bidirectional controls of Unsafe; a byte that is not UTF-8 becomes
// \ufffd, as encoding/json itself writes one. Outside its strings JSON is
// ASCII, so every such character is inside a string and the escape
// decodes back to the same value: the document stays valid and means the
// same, and printing it raw is harmless.
func AppendJSON(dst, src []byte) []byte {
	i := firstUnsafeJSON(src)
	if i == len(src) {
		return append(dst, src...)
	}
	// Runs of bytes that need nothing are copied whole, from start.
	start := 0
	for i < len(src) {
		c := src[i]
		if c == '\\' {
			// An escape: a \uNNNN of half a surrogate pair, which
			// strict readers refuse, becomes \ufffd; the rest stay.
			n := escapeLen(src[i:])
			if n < 0 {
				dst = append(append(dst, src[start:i]...), `\ufffd`...)
				n, start = 6, i+6
			}
			i += n
			continue
		}
		if c < utf8.RuneSelf {
			if c == 0x7f || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
				dst = appendU(append(dst, src[start:i]...), rune(c))
				start = i + 1
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			dst = append(append(dst, src[start:i]...), `\ufffd`...)
			start = i + n
		case Unsafe(r):
			dst = appendU(append(dst, src[start:i]...), r)
			start = i + n
		}
		i += n
	}
	return append(dst, src[start:]...)
}

// firstUnsafeJSON returns the offset of the first byte AppendJSON may
// have to rewrite, or len(b): a lone surrogate's escape included.
func firstUnsafeJSON(b []byte) int {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' {
			n := escapeLen(b[i:])
			if n < 0 {
				return i
			}
			i += n - 1
			continue
		}
		if c >= 0x7f || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
			return i
		}
	}
	return len(b)
}

// escapeLen returns the length of the escape b starts with (b[0] is a
// backslash inside a JSON string): 2, 6 for a \uNNNN, 12 for a surrogate
// pair; -1 for the \uNNNN of a surrogate without its other half.
func escapeLen(b []byte) int {
	if len(b) < 6 || b[1] != 'u' {
		return min(2, len(b))
	}
	r := hex4(b[2:6])
	switch {
	case r < 0xd800 || r > 0xdfff:
		return 6
	case r >= 0xdc00:
		return -1
	case len(b) >= 12 && b[6] == '\\' && b[7] == 'u':
		if lo := hex4(b[8:12]); lo >= 0xdc00 && lo <= 0xdfff {
			return 12
		}
	}
	return -1
}

// hex4 reads four hex digits; -1 when they are not.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c|0x20 && c|0x20 <= 'f':
			r = r<<4 | rune(c|0x20-'a'+10)
		default:
			return -1
		}
	}
	return r
}

func appendU(dst []byte, r rune) []byte {
	const digits = "0123456789abcdef"
	return append(dst, '\\', 'u', digits[r>>12&0xf], digits[r>>8&0xf], digits[r>>4&0xf], digits[r&0xf])
}

// Marshal is json.Marshal without HTML escaping, made inert by
// AppendJSON, with no trailing newline.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return AppendJSON(nil, bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})), nil
}

// Encoder writes JSON values as encoding/json's Encoder does, without
// HTML escaping, each made inert by AppendJSON before it is written. It
// is what every JSON output of sift writes through.
type Encoder struct {
	w   io.Writer
	buf bytes.Buffer
	enc *json.Encoder
	out []byte
}

// NewEncoder returns an Encoder writing to w.
func NewEncoder(w io.Writer) *Encoder {
	e := &Encoder{w: w}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}

// SetIndent indents every value as json.Encoder.SetIndent does.
func (e *Encoder) SetIndent(prefix, indent string) { e.enc.SetIndent(prefix, indent) }

// Encode writes v as JSON followed by a newline, in one Write.
func (e *Encoder) Encode(v any) error {
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return err
	}
	e.out = AppendJSON(e.out[:0], e.buf.Bytes())
	_, err := e.w.Write(e.out)
	return err
}
