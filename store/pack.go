package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
// A value whose JSON passes packStreamAt (a session of many thousands of
// calls) is compressed as it is encoded, into S2's framed stream format,
// marked by a leading 0x01: its JSON is never held whole. The seed
// schema's own columns (tool_calls_json, stalls_json) stay JSON.

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
	// raw is the room of a search document before it is compressed
	// (prepareDoc).
	raw []byte
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

// maxUnpacked bounds the JSON of one stored value: summaries keep their
// texts cut, so even a session of hundreds of thousands of calls stays
// well below it, while a value crafted in a shared database (a few KB
// that would expand to gigabytes) is refused before it is allocated.
const maxUnpacked = 256 << 20

// errTooBig is unpackJSON's error for a value past maxUnpacked.
var errTooBig = fmt.Errorf("compressed column expands past %d MiB", maxUnpacked>>20)

// unpackJSON returns the JSON of a stored value. A value that is
// malformed, or that would expand past maxUnpacked, is an error; nothing
// past the bound is allocated.
func unpackJSON(b []byte) ([]byte, error) {
	if len(b) == 0 || b[0] > 1 {
		return b, nil
	}
	if b[0] == 1 {
		var out bytes.Buffer
		n, err := io.Copy(&out, io.LimitReader(s2.NewReader(bytes.NewReader(b[1:]), s2.ReaderMaxBlockSize(4<<20)), maxUnpacked+1))
		switch {
		case err != nil:
			return nil, errPacked
		case n > maxUnpacked:
			return nil, errTooBig
		}
		return out.Bytes(), nil
	}
	n, err := s2.DecodedLen(b[1:])
	switch {
	case errors.Is(err, s2.ErrTooLarge):
		return nil, errTooBig
	case err != nil:
		return nil, errPacked
	case n > maxUnpacked:
		return nil, errTooBig
	}
	out, err := s2.Decode(nil, b[1:])
	if err != nil {
		return nil, errPacked
	}
	return out, nil
}

// packStreamAt is the JSON size past which a packed value is compressed
// as it is encoded: below it a value is encoded whole and compressed in
// one block, as before.
const packStreamAt = 4 << 20

// list is a sequence a column is encoded from one element at a time: a
// slice (sliceList) or a session's review events.
type list[T any] interface {
	Len() int
	Each(func(*T) error) error
}

// sliceList is a slice as a list.
type sliceList[T any] []T

func (l sliceList[T]) Len() int { return len(l) }

func (l sliceList[T]) Each(fn func(*T) error) error {
	for i := range l {
		if err := fn(&l[i]); err != nil {
			return err
		}
	}
	return nil
}

// encodePackedList is encodePacked for a list as a JSON array (an empty
// one is []), encoding one element at a time: the stored form of a short
// list is encodePacked's, and a long one's JSON is compressed as it is
// made, never held whole.
func encodePackedList[T any](l list[T]) ([]byte, error) {
	sc := scratch.Get().(*packScratch)
	defer scratch.Put(sc)
	sc.json.Reset()
	sc.json.WriteByte('[')
	enc := json.NewEncoder(&sc.json)
	var out bytes.Buffer
	var zw *s2.Writer
	n := 0
	err := l.Each(func(v *T) error {
		if n > 0 {
			sc.json.WriteByte(',')
		}
		n++
		if err := enc.Encode(v); err != nil {
			return err
		}
		sc.json.Truncate(sc.json.Len() - 1) // Encode's newline
		if zw == nil && sc.json.Len() < packStreamAt {
			return nil
		}
		if zw == nil {
			out.WriteByte(1)
			zw = s2.NewWriter(&out, s2.WriterConcurrency(1))
		}
		_, err := zw.Write(sc.json.Bytes())
		sc.json.Reset()
		return err
	})
	if err != nil {
		return nil, err
	}
	sc.json.WriteByte(']')
	if zw == nil {
		b := sc.json.Bytes()
		if len(b) < packMin {
			return bytes.Clone(b), nil
		}
		return sc.pack(b), nil
	}
	if _, err := zw.Write(sc.json.Bytes()); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return bytes.Clone(out.Bytes()), nil
}

// encodeList encodes a list as a JSON array (an empty one is []) into a
// buffer of its exact size. A long list is encoded twice, once to measure
// it: a growing buffer would hold a 300,000-call list's 130 MB of JSON
// twice over while it copies.
func encodeList[T any](l []T) ([]byte, error) {
	if len(l) < 1024 {
		b, err := json.Marshal(l)
		if l == nil {
			b = []byte("[]")
		}
		return b, err
	}
	sc := scratch.Get().(*packScratch)
	defer scratch.Put(sc)
	enc := json.NewEncoder(&sc.json)
	size := 2 + len(l) - 1 // the brackets and commas
	for i := range l {
		sc.json.Reset()
		if err := enc.Encode(&l[i]); err != nil {
			return nil, err
		}
		size += sc.json.Len() - 1
	}
	out := bytes.NewBuffer(make([]byte, 0, size))
	out.WriteByte('[')
	enc = json.NewEncoder(out)
	for i := range l {
		if i > 0 {
			out.WriteByte(',')
		}
		if err := enc.Encode(&l[i]); err != nil {
			return nil, err
		}
		out.Truncate(out.Len() - 1)
	}
	out.WriteByte(']')
	return out.Bytes(), nil
}
