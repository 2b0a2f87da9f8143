package store

import (
	"errors"

	"github.com/klauspost/compress/s2"
)

// The turns and review events of a session (turns_json, events_json) are
// most of what an import writes: a few hundred bytes per turn and per
// event, in JSON that repeats its keys. They are stored compressed (S2,
// about a tenth of the JSON on the benchmark corpus, a quarter on real
// transcripts), marked by a leading NUL byte, which JSON text never
// starts with; short values, and rows written before, are plain JSON.
// The seed schema's own columns (tool_calls_json, stalls_json) stay JSON.

// packMin is the shortest JSON worth compressing.
const packMin = 512

// packJSON returns the stored form of a JSON value.
func packJSON(b []byte) []byte {
	if len(b) < packMin {
		return b
	}
	dst := make([]byte, 1+s2.MaxEncodedLen(len(b)))
	enc := s2.Encode(dst[1:], b)
	return dst[:1+len(enc)]
}

var errPacked = errors.New("malformed compressed column")

// unpackJSON returns the JSON of a stored value.
func unpackJSON(b []byte) ([]byte, error) {
	if len(b) == 0 || b[0] != 0 {
		return b, nil
	}
	out, err := s2.Decode(nil, b[1:])
	if err != nil {
		return nil, errPacked
	}
	return out, nil
}
