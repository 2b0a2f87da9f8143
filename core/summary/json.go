package summary

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// listsJSON is how a summary whose lists are empty encodes them: the keys
// are adjacent, in this order, and found nowhere else in the JSON (inside
// a string every quote is escaped).
const listsJSON = `"toolCalls":[],"stalls":[],"turns":[]`

// Encoder encodes one JSON value and a newline, as encoding/json's does.
type Encoder interface {
	Encode(v any) error
}

// NewEncoder returns the Encoder WriteJSON uses by default: encoding/json's
// without HTML escaping.
func NewEncoder(w io.Writer) Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// WriteJSON writes a summary as one line of JSON, byte for byte what
// newEncoder(w).Encode(s) writes, but one tool call, stall and turn at a
// time: a summary of 300,000 tool calls is 180 MB of JSON, which an
// Encoder holds whole before writing any. newEncoder makes the encoder of
// each part (nil: NewEncoder); one that rewrites characters inside
// strings, as an output sanitizer does, writes the same when it encodes
// the parts as when it encodes the whole.
func WriteJSON(w io.Writer, s *Summary, newEncoder func(io.Writer) Encoder) error {
	return WriteJSONOf(w, s, func(brief *Summary) any { return brief }, newEncoder)
}

// WriteJSONOf is WriteJSON for a value that embeds the summary, such as a
// review session, which adds its decisions: wrap returns that value
// around a summary (s, or a copy of it whose lists are empty), and the
// value's JSON is written with the summary's lists streamed. Outside the
// summary, the value's JSON must not hold the lists' keys.
func WriteJSONOf(w io.Writer, s *Summary, wrap func(*Summary) any, newEncoder func(io.Writer) Encoder) error {
	if newEncoder == nil {
		newEncoder = NewEncoder
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf bytes.Buffer
	enc := newEncoder(&buf)
	// The work item and file name are the stream file's folder and name,
	// which whatever wrote it chose: written redacted, as they are shown.
	shown := *s
	shown.WorkItemID, shown.FileName = redactText(s.WorkItemID), redactText(s.FileName)
	s = &shown
	if s.ToolCalls == nil || s.Stalls == nil || s.Turns == nil {
		// A brief summary (a list's row): nothing grows with the calls.
		if err := enc.Encode(wrap(s)); err != nil {
			return err
		}
		_, err := bw.Write(buf.Bytes())
		if err == nil {
			err = bw.Flush()
		}
		return err
	}
	brief := *s
	brief.ToolCalls, brief.Stalls, brief.Turns = []ToolCall{}, []Stall{}, []Turn{}
	if err := enc.Encode(wrap(&brief)); err != nil {
		return err
	}
	head, tail, ok := bytes.Cut(buf.Bytes(), []byte(listsJSON))
	if !ok {
		return fmt.Errorf("encode summary: no %s in the summary's JSON", listsJSON)
	}
	// head and tail stay in buf, which the elements are encoded past.
	head, tail = bytes.Clone(head), bytes.Clone(tail)
	bw.Write(head)
	bw.WriteString(`"toolCalls":`)
	if err := writeList(bw, &buf, enc, s.ToolCalls); err != nil {
		return err
	}
	bw.WriteString(`,"stalls":`)
	if err := writeList(bw, &buf, enc, s.Stalls); err != nil {
		return err
	}
	bw.WriteString(`,"turns":`)
	if err := writeList(bw, &buf, enc, s.Turns); err != nil {
		return err
	}
	bw.Write(tail)
	return bw.Flush()
}

// writeList writes a JSON array one element at a time, each encoded into
// buf by enc.
func writeList[T any](bw *bufio.Writer, buf *bytes.Buffer, enc Encoder, list []T) error {
	bw.WriteByte('[')
	for i := range list {
		if i > 0 {
			bw.WriteByte(',')
		}
		buf.Reset()
		if err := enc.Encode(&list[i]); err != nil {
			return err
		}
		// Encode ends each value with a newline.
		if _, err := bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))); err != nil {
			return err
		}
	}
	return bw.WriteByte(']')
}
