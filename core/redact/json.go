package redact

import (
	"encoding/json"

	"unicode/utf8"

	"github.com/agentsift/sift/core/internal/view"
)

// JSONLine redacts one line of a JSON stream so that the result is still
// the same JSON: it redacts inside each string value (decoded, so escaped
// content and JSON nested in a string are seen as text, a private-key block
// across `\n` escapes included) and re-encodes only the strings it changed.
// The value of a secret-named key ("password": "…", "api_key": "…",
// "authorization": "…") is replaced whole. Bytes outside strings (numbers,
// punctuation, a sandbox's non-JSON prefix) are kept. A line that does not
// start like JSON, or whose strings do not close, is redacted as text.
//
// It returns line itself (no copy) when nothing was found.
func JSONLine(line []byte) []byte {
	if !mayContain(view.String(line)) {
		return line
	}
	if !looksJSON(line) {
		return Bytes(line)
	}
	out, ok := redactJSON(line)
	if !ok {
		return Bytes(line)
	}
	return out
}

// looksJSON reports whether the first byte that is not white space or a
// control character (sandboxes prefix lines with 0x01) opens an object, an
// array or a string.
func looksJSON(b []byte) bool {
	for _, c := range b {
		if c <= ' ' {
			continue
		}
		return c == '{' || c == '[' || c == '"'
	}
	return false
}

// redactJSON walks the string tokens of a JSON text. It reports false when
// a string does not close.
func redactJSON(line []byte) ([]byte, bool) {
	var out []byte    // nil until the first change
	last := 0         // line[last:] is not yet copied to out
	var key secretKey // the secret-named key the next value belongs to
	keyed := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '"' {
			if c > ' ' && c != ':' {
				keyed = false // a value that is not a string
			}
			continue
		}
		end := stringEnd(line, i)
		if end < 0 {
			return nil, false
		}
		tok := line[i : end+1]
		isKey := nextNonSpace(line, end+1) == ':'
		var repl []byte
		switch {
		case isKey:
			key, keyed = secretName(tok)
			repl = redactToken(tok) // a token used as a map key
		case keyed:
			repl = redactSecretValue(key, tok)
			keyed = false
		default:
			repl = redactToken(tok)
		}
		if repl != nil {
			if out == nil {
				out = make([]byte, 0, len(line)+32)
			}
			out = append(out, line[last:i]...)
			out = append(out, repl...)
			last = end + 1
		}
		i = end
	}
	if out == nil {
		return line, true
	}
	return append(out, line[last:]...), true
}

// stringEnd returns the index of the quote closing the string that opens
// at b[i], or -1.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

// nextNonSpace returns the first byte at or after i that is not JSON white
// space, or 0.
func nextNonSpace(b []byte, i int) byte {
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
		default:
			return b[i]
		}
	}
	return 0
}

// secretName returns the secret-named key an encoded JSON key names: it
// ends in a keyword ("password", "GITHUB_TOKEN", "apiKey",
// "authorization").
func secretName(tok []byte) (secretKey, bool) {
	name := view.String(tok[1 : len(tok)-1])
	if len(name) == 0 || keywords[lower(name[len(name)-1])] == nil {
		return secretKey{}, false
	}
	return keyAt(name, keyStart(name, len(name)), len(name))
}

// redactSecretValue replaces the whole value of a secret-named key. Values
// that are no secret (empty, already redacted, a `$VAR` reference, a
// literal, see secretLike) and values the key's check refuses (an auth
// that is not user:password in base64) are kept; the value's own patterns
// still apply.
func redactSecretValue(key secretKey, tok []byte) []byte {
	s, ok := decode(tok)
	if !ok {
		return nil
	}
	if !secretLike(s, "") || (key.check != nil && !key.check(s)) {
		return redactToken(tok)
	}
	return encode(marker(key.kind))
}

// redactToken redacts inside one encoded JSON string and returns its new
// encoding, or nil when nothing changed.
func redactToken(tok []byte) []byte {
	if !mayContain(view.String(tok)) {
		return nil
	}
	s, ok := decode(tok)
	if !ok {
		return nil
	}
	r := redactString(s)
	if r == s {
		return nil
	}
	return encode(r)
}

// decode returns the value of an encoded JSON string.
func decode(tok []byte) (string, bool) {
	if !hasEscape(tok) {
		return string(tok[1 : len(tok)-1]), true
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return "", false
	}
	return s, true
}

func hasEscape(tok []byte) bool {
	for _, c := range tok[1 : len(tok)-1] {
		if c == '\\' {
			return true
		}
	}
	return false
}

// encode writes s as a JSON string (AppendJSONString).
func encode(s string) []byte { return AppendJSONString(make([]byte, 0, len(s)+2), s) }

// AppendJSONString appends s as a JSON string, escaping only what JSON
// requires (and invalid UTF-8 as U+FFFD), so text that was not redacted
// keeps its bytes.
func AppendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
