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
// have to rewrite, or len(b).
func firstUnsafeJSON(b []byte) int {
	for i, c := range b {
		if c >= 0x7f || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
			return i
		}
	}
	return len(b)
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
