package store

import (
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/klauspost/compress/s2"
	"modernc.org/sqlite"
)

// A session's search document is stored once, compressed, in search_text
// (migration 0017): its body (the indexed text, one part per line) and its
// parts' JSON (where each line is in the session). The full-text table
// search_fts keeps no copy of it (content=''): its triggers hand it the
// body to index when a document is written, and the old body to take out
// of the index when one is replaced or deleted. Snippets and highlights
// are made in Go from the stored body (Store.Matches).
//
// A stored document is a NUL byte, as pack.go marks its compressed
// values, then one S2 block of the body's length (a uvarint), the body
// and the parts' JSON.

// SQL functions on stored documents, for the triggers and the migration:
//
//   - sift_search_body(doc) is the body of a stored document;
//   - sift_search_parts(doc) is its parts' JSON;
//   - sift_search_pack(body, parts) is the stored document of a body and
//     its parts' JSON (migration 0017 packs the documents stored before).
func init() {
	sqlite.MustRegisterFunction("sift_search_body", &sqlite.FunctionImpl{
		NArgs: 1, Deterministic: true, Scalar: searchBodyFunc,
	})
	sqlite.MustRegisterFunction("sift_search_parts", &sqlite.FunctionImpl{
		NArgs: 1, Deterministic: true, Scalar: searchPartsFunc,
	})
	sqlite.MustRegisterFunction("sift_search_pack", &sqlite.FunctionImpl{
		NArgs: 2, Deterministic: true, Scalar: searchPackFunc,
	})
}

var errSearchText = errors.New("malformed search document")

// packSearchText returns the stored form of a document's body and parts'
// JSON. buf, when large enough, holds the uncompressed form while it is
// made; it is returned for reuse.
func packSearchText(body string, parts []byte, buf []byte) (doc, scratch []byte) {
	n := binary.MaxVarintLen64 + len(body) + len(parts)
	if cap(buf) < n {
		buf = make([]byte, 0, n)
	}
	raw := binary.AppendUvarint(buf[:0], uint64(len(body)))
	raw = append(raw, body...)
	raw = append(raw, parts...)
	doc = make([]byte, 1+s2.MaxEncodedLen(len(raw)))
	doc = doc[:1+len(s2.Encode(doc[1:], raw))]
	return doc, raw
}

// unpackSearchText returns a stored document's body and parts' JSON.
func unpackSearchText(doc []byte) (body string, parts []byte, err error) {
	if len(doc) == 0 || doc[0] != 0 {
		return "", nil, errSearchText
	}
	raw, err := s2.Decode(nil, doc[1:])
	if err != nil {
		return "", nil, errSearchText
	}
	n, k := binary.Uvarint(raw)
	if k <= 0 || n > uint64(len(raw)-k) {
		return "", nil, errSearchText
	}
	raw = raw[k:]
	return string(raw[:n]), raw[n:], nil
}

// searchBodyFunc implements sift_search_body.
func searchBodyFunc(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	body, _, err := unpackSearchText(bytesOf(args[0]))
	if err != nil {
		return nil, fmt.Errorf("sift_search_body: %w", err)
	}
	return body, nil
}

// searchPartsFunc implements sift_search_parts.
func searchPartsFunc(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	_, parts, err := unpackSearchText(bytesOf(args[0]))
	if err != nil {
		return nil, fmt.Errorf("sift_search_parts: %w", err)
	}
	return string(parts), nil
}

// searchPackFunc implements sift_search_pack.
func searchPackFunc(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	doc, _ := packSearchText(string(bytesOf(args[0])), bytesOf(args[1]), nil)
	return doc, nil
}
