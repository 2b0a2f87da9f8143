package summary

import (
	"bytes"
	"encoding/json"
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
		s, _, err := AnalyzeFile(path, Options{Agent: folderAgent(path)})
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
		if err := WriteJSON(&got, s); err != nil {
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
