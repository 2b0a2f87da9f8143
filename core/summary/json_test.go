package summary

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// encoderJSON is a summary as encoding/json's Encoder writes it, the form
// `sift summary --json` and the API print.
func encoderJSON(t *testing.T, s *Summary) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestWriteJSONMatchesEncoder checks that streaming a summary's lists
// writes the same bytes as encoding the summary whole: every fixture, a
// brief list row, and texts that spell the lists' keys.
func TestWriteJSONMatchesEncoder(t *testing.T) {
	t.Parallel()
	var sums []*Summary
	for _, path := range fixtures(t) {
		s, _, err := AnalyzeFile(path, Options{Agent: string(folderAgent(path))})
		if err != nil {
			t.Fatal(err)
		}
		sums = append(sums, s)
	}
	tricky := *sums[0]
	msg := `"toolCalls":[],"stalls":[],"turns":[] <b>&`
	tricky.FinalAssistantMessage, tricky.Tail = &msg, []string{listsJSON}
	brief := *sums[0]
	brief.ToolCalls, brief.Stalls, brief.Turns = nil, nil, nil
	sums = append(sums, &tricky, &brief)
	for i, s := range sums {
		var got bytes.Buffer
		if err := WriteJSON(&got, s, nil); err != nil {
			t.Fatal(err)
		}
		if want := encoderJSON(t, s); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("summary %d (%s): WriteJSON differs from the Encoder:\n got %s\nwant %s", i, s.FileName, got.Bytes(), want)
		}
	}
	if bytes.Contains(encoderJSON(t, &brief), []byte(`"toolCalls"`)) {
		t.Error("a brief summary's JSON has toolCalls")
	}
}

// escapingEncoder is an output sanitizer's encoder: it writes every
// non-ASCII character of a value's JSON as a \u escape.
type escapingEncoder struct {
	w   io.Writer
	buf bytes.Buffer
}

func (e *escapingEncoder) Encode(v any) error {
	e.buf.Reset()
	if err := NewEncoder(&e.buf).Encode(v); err != nil {
		return err
	}
	var out strings.Builder
	for _, r := range e.buf.String() {
		if r < 0x80 {
			out.WriteRune(r)
		} else {
			fmt.Fprintf(&out, `\u%04x`, r)
		}
	}
	_, err := io.WriteString(e.w, out.String())
	return err
}

// TestWriteJSONWithAnEscapingEncoder: parts encoded by a sanitizing
// encoder make the bytes it writes for the whole.
func TestWriteJSONWithAnEscapingEncoder(t *testing.T) {
	t.Parallel()
	s, _, err := AnalyzeFile(fixtures(t)[0], Options{})
	if err != nil {
		t.Fatal(err)
	}
	msg := "héllo \u009b31m"
	s.FinalAssistantMessage = &msg
	s.ToolCalls = append(s.ToolCalls, ToolCall{ID: "c-é", InputSummary: "naïve ✓"})
	newEnc := func(w io.Writer) Encoder { return &escapingEncoder{w: w} }
	var got, want bytes.Buffer
	if err := WriteJSON(&got, s, newEnc); err != nil {
		t.Fatal(err)
	}
	if err := newEnc(&want).Encode(s); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() || strings.Contains(got.String(), "é") {
		t.Errorf("WriteJSON with an escaping encoder:\n got %s\nwant %s", got.String(), want.String())
	}
}
