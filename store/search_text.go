package store

import (
	"bytes"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/klauspost/compress/s2"
	"modernc.org/sqlite"
)

// A session's search document is stored once, compressed, in search_text
// (migration 0017): its body (the indexed text, one part per line), its
// tags (the words of its static filters, searchTags) and its parts' JSON
// (where each line is in the session). The full-text table search_fts
// keeps no copy of it (content=''): its triggers hand it the body and the
// tags to index when a document is written, and the old ones to take out
// of the index when one is replaced or deleted. Snippets and highlights
// are made in Go from the stored body (Store.Matches).
//
// A stored document is a NUL byte, as pack.go marks its compressed
// values, then one S2 block of the body's length (a uvarint), the body,
// the tags' length, the tags and the parts' JSON.

// SQL functions on stored documents, for the triggers and the migration:
//
//   - sift_search_body(doc) is the body of a stored document;
//   - sift_search_tags(doc) its tags;
//   - sift_search_parts(doc) is its parts' JSON;
//   - sift_search_pack(body, tags, parts) is the stored document of a
//     body, its tags and its parts' JSON;
//   - sift_search_tags_of(agent_kind, flags, outcome) is the tags of a
//     summary's columns (migration 0017 packs the documents stored before).
func init() {
	for name, f := range map[string]*sqlite.FunctionImpl{
		"sift_search_body":    {NArgs: 1, Deterministic: true, Scalar: searchTextFunc(0)},
		"sift_search_tags":    {NArgs: 1, Deterministic: true, Scalar: searchTextFunc(1)},
		"sift_search_parts":   {NArgs: 1, Deterministic: true, Scalar: searchTextFunc(2)},
		"sift_search_pack":    {NArgs: 3, Deterministic: true, Scalar: searchPackFunc},
		"sift_search_tags_of": {NArgs: 3, Deterministic: true, Scalar: searchTagsFunc},
	} {
		sqlite.MustRegisterFunction(name, f)
	}
}

var errSearchText = errors.New("malformed search document")

// searchText is a search document as stored, unpacked.
type searchText struct {
	body, tags string
	parts      []byte
}

// packSearchText returns the stored form of a document.
func packSearchText(t searchText) []byte {
	doc, _, _ := packSearchTextInto(t, nil, nil)
	return doc
}

// packSearchTextInto is packSearchText with room for the uncompressed and
// the compressed forms while they are made (raw, packed: reused when large
// enough, and returned for reuse): only the stored form is allocated.
func packSearchTextInto(t searchText, raw, packed []byte) (doc, rawOut, packedOut []byte) {
	n := 2*binary.MaxVarintLen64 + len(t.body) + len(t.tags) + len(t.parts)
	if cap(raw) < n {
		raw = make([]byte, 0, n)
	}
	raw = binary.AppendUvarint(raw[:0], uint64(len(t.body)))
	raw = append(raw, t.body...)
	raw = binary.AppendUvarint(raw, uint64(len(t.tags)))
	raw = append(raw, t.tags...)
	raw = append(raw, t.parts...)
	if m := 1 + s2.MaxEncodedLen(len(raw)); cap(packed) < m {
		packed = make([]byte, m)
	}
	packed = packed[:cap(packed)]
	packed[0] = 0
	enc := s2.Encode(packed[1:], raw)
	return bytes.Clone(packed[:1+len(enc)]), raw, packed
}

// unpackSearchText returns a stored document.
func unpackSearchText(doc []byte) (searchText, error) {
	var t searchText
	if len(doc) == 0 || doc[0] != 0 {
		return t, errSearchText
	}
	raw, err := s2.Decode(nil, doc[1:])
	if err != nil {
		return t, errSearchText
	}
	next := func() (string, bool) {
		n, k := binary.Uvarint(raw)
		if k <= 0 || n > uint64(len(raw)-k) {
			return "", false
		}
		s := string(raw[k : k+int(n)])
		raw = raw[k+int(n):]
		return s, true
	}
	var ok1, ok2 bool
	t.body, ok1 = next()
	t.tags, ok2 = next()
	if !ok1 || !ok2 {
		return searchText{}, errSearchText
	}
	t.parts = raw
	return t, nil
}

// searchTextFunc implements sift_search_body (0), sift_search_tags (1)
// and sift_search_parts (2).
func searchTextFunc(field int) func(*sqlite.FunctionContext, []driver.Value) (driver.Value, error) {
	return func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		t, err := unpackSearchText(bytesOf(args[0]))
		if err != nil {
			return nil, fmt.Errorf("search document: %w", err)
		}
		return [...]string{t.body, t.tags, string(t.parts)}[field], nil
	}
}

// searchPackFunc implements sift_search_pack.
func searchPackFunc(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	return packSearchText(searchText{string(bytesOf(args[0])), string(bytesOf(args[1])), bytesOf(args[2])}), nil
}

// searchTagsFunc implements sift_search_tags_of.
func searchTagsFunc(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	return searchTags(string(bytesOf(args[0])), string(bytesOf(args[1])), string(bytesOf(args[2]))), nil
}

// The tags of a document are words of its own, which no query's words
// are, standing for the values of its summary that the static filters
// agent:, flag: and outcome: compare: the full-text index answers a
// search's words and those filters at once. A tag is a private-use
// character (a word character to the index, none to a query), the
// filter's letter, and the value's bytes, ASCII lowercased, in hex: a
// filter's value (lowercased) in hex is a prefix of a tag exactly when it
// is a prefix of the value, as the filter's LIKE has it.
const (
	tagMark    = "\uE001"
	tagAgent   = 'a'
	tagFlag    = 'f'
	tagOutcome = 'o'
)

// searchTags returns the tags of a summary's agent kind, flags (its
// column: the names separated by single spaces) and outcome.
func searchTags(agent, flags, outcome string) string {
	var b []byte
	add := func(kind byte, v string) {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = appendTag(b, kind, v)
	}
	add(tagAgent, agent)
	for _, f := range strings.Split(flags, " ") {
		if f != "" {
			add(tagFlag, f)
		}
	}
	add(tagOutcome, outcome)
	return string(b)
}

// appendTag appends the tag of a value.
func appendTag(b []byte, kind byte, v string) []byte {
	b = append(b, tagMark...)
	b = append(b, kind)
	for i := 0; i < len(v); i++ {
		c := v[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
	}
	return b
}
