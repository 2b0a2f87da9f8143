package agents

import "bytes"

// Harnesses that stream a reply as it is generated print one JSON line per
// few words (a delta line), and a secret the model writes is then split
// across lines: capture holds such lines back and redacts their text in
// the context of the message. Each harness's entry recognises its own
// delta lines (Harness.deltas); DeltaText asks them all.

// DeltaShape recognises one harness's delta lines. Given a line, its
// top-level object and that object's "type" ("" when it has none or it is
// not a plain string), it reports whether the line has the harness's delta
// shape, the message the line belongs to and the value of its text.
type DeltaShape func(b []byte, obj JSONVal, typ string) (stream string, text JSONVal, ok bool)

// DeltaText recognises a delta line of any harness: it returns the message
// it belongs to and the bounds of its text, a JSON string.
func DeltaText(b []byte) (stream string, lo, hi int, ok bool) {
	if !marksDelta(b[:min(len(b), 256)]) && !marksDelta(b[max(len(b)-64, 0):]) {
		return "", 0, 0, false
	}
	start := 0
	for start < len(b) && b[start] <= ' ' {
		start++ // sandboxes prefix lines with control bytes
	}
	obj := JSONVal{start, len(b)}
	typ := obj.Str(b, "type")
	hs := table()
	for i := range hs {
		if hs[i].Deltas == nil {
			continue
		}
		if stream, text, ok := hs[i].Deltas(b, obj, typ); ok {
			return deltaOf(b, stream, text)
		}
	}
	return "", 0, 0, false
}

// marksDelta reports whether a line's head or tail names a delta ("delta",
// "text_delta", …) or a cursor timestamp_ms: every delta line does, near
// its start or its end, and looking there only costs the same on a line
// of a megabyte as on a short one.
func marksDelta(b []byte) bool {
	return bytes.Contains(b, []byte("delta")) || bytes.Contains(b, []byte("timestamp_ms"))
}

// deltaOf returns a delta's stream and text when the text is a string.
func deltaOf(b []byte, stream string, v JSONVal) (string, int, int, bool) {
	if !v.OK() || b[v.lo] != '"' {
		return "", 0, 0, false
	}
	return stream, v.lo, v.hi, true
}

// JSONVal is a JSON value within a line, b[lo:hi]; the zero JSONVal (lo == hi)
// is absent. Its methods read just enough of the line to find a member,
// without decoding the rest.
type JSONVal struct{ lo, hi int }

func (v JSONVal) OK() bool { return v.hi > v.lo }

func (v JSONVal) Raw(b []byte) []byte { return b[v.lo:v.hi] }

// Is reports whether the value is the literal lit.
func (v JSONVal) Is(b []byte, lit string) bool { return v.OK() && string(b[v.lo:v.hi]) == lit }

// Str returns the member key of the object v when it is a string without
// escapes, else "".
func (v JSONVal) Str(b []byte, key string) string {
	m := v.Member(b, key)
	if !m.OK() || b[m.lo] != '"' || bytes.IndexByte(b[m.lo:m.hi], '\\') >= 0 {
		return ""
	}
	return string(b[m.lo+1 : m.hi-1])
}

// Member returns the value of key in the object v (absent when v is not
// an object or has no such key).
func (v JSONVal) Member(b []byte, key string) JSONVal {
	i := jsonSpace(b, v.lo, v.hi)
	if i >= v.hi || b[i] != '{' {
		return JSONVal{}
	}
	i++
	for {
		i = jsonSpace(b, i, v.hi)
		if i >= v.hi || b[i] != '"' {
			return JSONVal{}
		}
		kEnd := jsonEnd(b, i, v.hi)
		if kEnd < 0 {
			return JSONVal{}
		}
		k := b[i+1 : kEnd-1]
		i = jsonSpace(b, kEnd, v.hi)
		if i >= v.hi || b[i] != ':' {
			return JSONVal{}
		}
		i = jsonSpace(b, i+1, v.hi)
		end := jsonEnd(b, i, v.hi)
		if end < 0 {
			return JSONVal{}
		}
		if string(k) == key {
			return JSONVal{i, end}
		}
		i = jsonSpace(b, end, v.hi)
		if i >= v.hi || b[i] != ',' {
			return JSONVal{}
		}
		i++
	}
}

// Only returns the single element of the array v (absent unless v is an
// array of exactly one element).
func (v JSONVal) Only(b []byte) JSONVal {
	i := jsonSpace(b, v.lo, v.hi)
	if i >= v.hi || b[i] != '[' {
		return JSONVal{}
	}
	i = jsonSpace(b, i+1, v.hi)
	end := jsonEnd(b, i, v.hi)
	if end < 0 {
		return JSONVal{}
	}
	if j := jsonSpace(b, end, v.hi); j >= v.hi || b[j] != ']' {
		return JSONVal{}
	}
	return JSONVal{i, end}
}

func jsonSpace(b []byte, i, hi int) int {
	for i < hi && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// jsonEnd returns the end of the JSON value at b[i], or -1.
func jsonEnd(b []byte, i, hi int) int {
	if i >= hi {
		return -1
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < hi; j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < hi; j++ {
			switch b[j] {
			case '"':
				e := jsonEnd(b, j, hi)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < hi && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] > ' ' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
