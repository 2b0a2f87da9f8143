package summary

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strings"

	gojson "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/internal/view"
)

// inputKeys are the input fields that best say what a call does, in the
// order they are tried.
var inputKeys = [...]string{
	"command", "cmd", "file_path", "filepath", "path", "notebook_path", "absolute_path",
	"pattern", "query", "glob", "url", "description", "prompt", "dir_path", "directory_path",
	"patterns", "folder", "skill", "name", "changes", "todos", "task", "fact",
}

// inputRank returns the rank of a key in inputKeys (matched ignoring ASCII
// case, as a JSON decoder matches struct fields), or -1.
func inputRank(key []byte) int {
	if len(key) > len("directory_path") {
		return -1
	}
	var low [16]byte
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	k := low[:len(key)]
	for i, w := range inputKeys {
		if string(k) == w {
			return i
		}
	}
	return -1
}

// inputSummary returns a redacted one-line summary of a call's input, a
// copy of at most MaxInputSummary bytes (and a marker). The
// input's top-level fields are scanned, not decoded: a call writing a
// whole file costs no copy of it.
func inputSummary(u *event.Update) string { return join(inputClipped(u)) }

// inputClipped is inputSummary without the copy: the text, which may be a
// view of the update's, and the marker that follows it (clippedLine).
func inputClipped(u *event.Update) (string, string) {
	s := ""
	if in := u.RawInput; len(in) > 0 && in[0] == '{' {
		// The last value of each known key, as a decoder would keep it.
		var vals [len(inputKeys)][]byte
		var f fields
		for f.reset(in); f.next(); {
			if r := inputRank(f.key); r >= 0 {
				vals[r] = f.val
			}
		}
		if f.ok() {
			for _, v := range vals {
				if s = jsonString(v); s != "" {
					break
				}
			}
		}
		if s == "" {
			s = string(in[:min(len(in), 4*maxLine)])
		}
	} else if len(in) > 0 {
		if s = jsonString(in); s == "" {
			s = string(in[:min(len(in), 4*maxLine)])
		}
	}
	if s == "" && u.Title != "" && u.Title != u.ToolName {
		s = u.Title
		if i := strings.Index(s, ": "); i > 0 && i < 12 {
			s = s[i+2:]
		}
	}
	if s == "" && len(u.Locations) > 0 {
		s = u.Locations[0].Path
	}
	return clippedLine(s, MaxInputSummary)
}

// fields walks the top level of a JSON object: each key and the raw bytes
// of its value. ok reports, once next is false, whether the object was
// well formed to its end.
type fields struct {
	in       []byte
	i        int
	key, val []byte
	done     bool
	bad      bool
}

func (f *fields) reset(in []byte) {
	*f = fields{in: in}
	f.i = skipSpace(in, 0)
	if f.i >= len(in) || in[f.i] != '{' {
		f.bad = true
		return
	}
	f.i = skipSpace(in, f.i+1)
	if f.i < len(in) && in[f.i] == '}' {
		f.done = true
		f.bad = skipSpace(in, f.i+1) != len(in)
	}
}

func (f *fields) ok() bool { return f.done && !f.bad }

// next moves to the next field; false at the end or on malformed input.
func (f *fields) next() bool {
	if f.done || f.bad {
		return false
	}
	in, i := f.in, f.i
	if i >= len(in) || in[i] != '"' {
		f.bad = true
		return false
	}
	end := skipString(in, i)
	if end < 0 {
		f.bad = true
		return false
	}
	f.key = in[i+1 : end-1]
	i = skipSpace(in, end)
	if i >= len(in) || in[i] != ':' {
		f.bad = true
		return false
	}
	i = skipSpace(in, i+1)
	if end = skipValue(in, i); end < 0 {
		f.bad = true
		return false
	}
	f.val = in[i:end]
	i = skipSpace(in, end)
	switch {
	case i < len(in) && in[i] == ',':
		f.i = skipSpace(in, i+1)
	case i < len(in) && in[i] == '}':
		f.done = true
		f.bad = skipSpace(in, i+1) != len(in)
	default:
		f.bad = true
		return false
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at b[i], or -1.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index after the value that starts at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				if i = skipString(b, i); i < 0 {
					return -1
				}
				i--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// jsonString returns a JSON string's value, the words of an array of
// strings joined by spaces, or for an array of objects (file changes, todo
// items) their paths or texts joined by commas.
func jsonString(v json.RawMessage) string {
	if len(v) == 0 {
		return ""
	}
	switch v[0] {
	case '"':
		if len(v) >= 2 && v[len(v)-1] == '"' && bytes.IndexByte(v[1:len(v)-1], '\\') < 0 && bytes.IndexByte(v[1:len(v)-1], '"') < 0 {
			// No escape: the text itself, not copied (the caller keeps
			// a copy of its first line only; a file's whole content
			// would cost a copy per call).
			return view.String(v[1 : len(v)-1])
		}
		var s string
		if gojson.Unmarshal(v, &s) == nil {
			return s
		}
	case '[':
		var ss []string
		if gojson.Unmarshal(v, &ss) == nil {
			return strings.Join(ss, " ")
		}
		var items []struct {
			Path    string `json:"path"`
			Content string `json:"content"`
			Text    string `json:"text"`
		}
		if gojson.Unmarshal(v, &items) == nil {
			parts := make([]string, 0, len(items))
			for _, it := range items {
				if p := cmp.Or(it.Path, it.Content, it.Text); p != "" {
					parts = append(parts, p)
				}
			}
			return strings.Join(parts, ", ")
		}
	}
	return ""
}
