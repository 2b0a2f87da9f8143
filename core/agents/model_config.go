package agents

import (
	"bytes"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
)

// JSONModel reads the first of the keys (dotted paths) that holds a
// string from a JSON (or JSON-with-comments) file; a missing file names
// none.
func JSONModel(l Launch, path string, keys ...string) (Model, error) {
	b, err := ReadConfig(path)
	if err != nil || b == nil {
		return Model{}, err
	}
	name, err := ModelKey(b, keys...)
	if err != nil {
		return Model{}, fmt.Errorf("read %s: %w", path, err)
	}
	return Model{Name: name, Source: l.Show(path)}, nil
}

// ModelKey returns the first of the keys (dotted paths) whose value is a
// non-empty string in a JSON document, which may carry comments and
// trailing commas (settings files often do).
func ModelKey(doc []byte, keys ...string) (string, error) {
	var v map[string]any
	if err := json.Unmarshal(jsonc(doc), &v); err != nil {
		return "", err
	}
	for _, k := range keys {
		var cur any = v
		for _, part := range strings.Split(k, ".") {
			m, ok := cur.(map[string]any)
			if !ok {
				cur = nil
				break
			}
			cur = m[part]
		}
		if s, ok := cur.(string); ok && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s), nil
		}
	}
	return "", nil
}

// jsonc returns a JSON-with-comments text as JSON: // and /* */ comments
// outside strings become spaces and a comma before a closing bracket is
// dropped.
func jsonc(b []byte) []byte {
	if !bytes.Contains(b, []byte("/")) && !bytes.Contains(b, []byte(",")) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(b))
			out = append(out, b[i:end]...)
			i = end - 1
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			i += end + 3
			out = append(out, ' ')
		case c == ']' || c == '}':
			k := len(out) - 1
			for k >= 0 && (out[k] == ' ' || out[k] == '\t' || out[k] == '\n' || out[k] == '\r') {
				k--
			}
			if k >= 0 && out[k] == ',' {
				out[k] = ' '
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
