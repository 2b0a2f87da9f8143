package store

import (
	"bytes"
	"errors"
	"sync"

	json "github.com/goccy/go-json"
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

// encodePacked encodes v as JSON, empty standing for null, and returns its
// stored form. The JSON is written to scratch, not kept: only the packed
// copy is allocated.
func encodePacked(v any, empty string) ([]byte, error) {
	sc := scratch.Get().(*packScratch)
	defer scratch.Put(sc)
	sc.json.Reset()
	if err := json.NewEncoder(&sc.json).Encode(v); err != nil {
		return nil, err
	}
	b := bytes.TrimSuffix(sc.json.Bytes(), []byte("\n"))
	if string(b) == "null" {
		b = []byte(empty)
	}
	if len(b) < packMin {
		return bytes.Clone(b), nil
	}
	return sc.pack(b), nil
}

// packScratch is the reusable room of one encoding.
type packScratch struct {
	json bytes.Buffer
	out  []byte
}

var scratch = sync.Pool{New: func() any { return new(packScratch) }}

// pack compresses b into the scratch and returns a copy of the result.
func (sc *packScratch) pack(b []byte) []byte {
	n := 1 + s2.MaxEncodedLen(len(b))
	if cap(sc.out) < n {
		sc.out = make([]byte, n)
	}
	out := sc.out[:n]
	out[0] = 0
	enc := s2.Encode(out[1:], b)
	return bytes.Clone(out[:1+len(enc)])
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
