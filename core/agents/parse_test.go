package agents

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/event"
)

func parseBytes(t testing.TB, data []byte, opt Options) ([]*event.Event, Stats) {
	t.Helper()
	var evs []*event.Event
	st, err := Default().Parse(bytes.NewReader(data), opt, func(ev *event.Event) { evs = append(evs, ev) })
	if err != nil {
		t.Fatal(err)
	}
	return evs, st
}

func kinds(evs []*event.Event) []event.Kind {
	ks := make([]event.Kind, len(evs))
	for i, ev := range evs {
		ks[i] = ev.Update.SessionUpdate
	}
	return ks
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	init := `{"type":"system","subtype":"init","session_id":"s1","model":"m","claude_code_version":"2.1.7"}`
	tests := []struct {
		name      string
		input     string
		wantKinds []event.Kind
		wantLines int
	}{
		{"empty file", "", nil, 0},
		{"invalid JSON is raw with its line", init + "\n{\"type\":\"assistant\",\n", []event.Kind{event.SessionStart, event.Raw}, 2},
		{"truncated last line without newline", init + "\n{\"type\":\"assistant\",\"message\":{\"id\":\"m", []event.Kind{event.SessionStart, event.Raw}, 2},
		{"non-UTF-8 bytes", init + "\n\xff\xfe\x00garbage\n", []event.Kind{event.SessionStart, event.Raw}, 2},
		{"blank lines count but yield nothing", init + "\n\n\r\n", []event.Kind{event.SessionStart}, 3},
		{"capture truncation marker", init + "\n[...truncated by 1234 bytes]\n", []event.Kind{event.SessionStart, event.Raw}, 2},
		{"stderr envelope", init + "\n{\"type\":\"sift.stderr\",\"text\":\"boom\"}\n", []event.Kind{event.SessionStart, event.Stderr}, 2},
		{"sandbox prefix bytes are stripped", "\x01\x01\x01" + init + "\n", []event.Kind{event.SessionStart}, 1},
		{"CRLF line endings", init + "\r\n", []event.Kind{event.SessionStart}, 1},
		{"binary file", string([]byte{0, 1, 2, 3, 0xff, 0x80, '\n', 0x7f, 0x00}), []event.Kind{event.Raw}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			evs, st := parseBytes(t, []byte(tc.input), Options{})
			if got := kinds(evs); !equalKinds(got, tc.wantKinds) {
				t.Fatalf("kinds = %v, want %v", got, tc.wantKinds)
			}
			if st.Lines != tc.wantLines {
				t.Errorf("lines = %d, want %d", st.Lines, tc.wantLines)
			}
			if st.Bytes != int64(len(tc.input)) {
				t.Errorf("bytes = %d, want %d", st.Bytes, len(tc.input))
			}
			for _, ev := range evs {
				if _, err := json.Marshal(ev); err != nil {
					t.Errorf("event does not marshal: %v", err)
				}
			}
		})
	}
}

func equalKinds(a, b []event.Kind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTruncationMarkerSetsStats(t *testing.T) {
	t.Parallel()
	evs, st := parseBytes(t, []byte("hello\n[...truncated by 99 bytes]\n"), Options{Agent: Unknown})
	if st.TruncatedBytes == nil || *st.TruncatedBytes != 99 {
		t.Fatalf("TruncatedBytes = %v, want 99", st.TruncatedBytes)
	}
	last := evs[len(evs)-1]
	if last.Update.TruncatedBytes == nil || *last.Update.TruncatedBytes != 99 || last.Line != 2 {
		t.Fatalf("marker event = %+v", last)
	}
}

func TestOffsetsPointAtLineStarts(t *testing.T) {
	t.Parallel()
	data := "a\n\nbb\nccc"
	evs, _ := parseBytes(t, []byte(data), Options{Agent: Unknown})
	want := map[int]int64{1: 0, 3: 3, 4: 6}
	for _, ev := range evs {
		if want[ev.Line] != ev.Offset {
			t.Errorf("line %d offset %d, want %d", ev.Line, ev.Offset, want[ev.Line])
		}
	}
}

// TestLongLineIsCut feeds a line far over the cap: it becomes one raw
// event, the next line still parses, and memory stays at the cap.
func TestLongLineIsCut(t *testing.T) {
	t.Parallel()
	const lineCap = 1 << 20
	long := strings.Repeat("x", 5*lineCap)
	data := long + "\n" + `{"type":"sift.stderr","text":"after"}` + "\n"
	evs, st := parseBytes(t, []byte(data), Options{Agent: Claude, MaxLine: lineCap})
	if len(evs) != 2 || evs[0].Update.SessionUpdate != event.Raw || evs[1].Update.SessionUpdate != event.Stderr {
		t.Fatalf("kinds = %v", kinds(evs))
	}
	if len(evs[0].Update.Text) != MaxRawText || evs[0].Extra["cut"] != true {
		t.Errorf("raw text %d bytes, extra %v", len(evs[0].Update.Text), evs[0].Extra)
	}
	if st.CutLines != 1 || evs[1].Line != 2 || evs[1].Offset != int64(len(long)+1) {
		t.Errorf("stats %+v, second event line %d offset %d", st, evs[1].Line, evs[1].Offset)
	}
}

// TestHundredMegabyteLine streams a 100 MB line through the default cap
// without holding the whole input.
func TestHundredMegabyteLine(t *testing.T) {
	if testing.Short() {
		t.Skip("100 MB input")
	}
	r := io.MultiReader(strings.NewReader(`{"type":"assistant","message":{"content":"`),
		io.LimitReader(repeatReader('a'), 100<<20), strings.NewReader("\"}}\nnext\n"))
	var evs []*event.Event
	st, err := Default().Parse(r, Options{Agent: Claude}, func(ev *event.Event) { evs = append(evs, ev) })
	if err != nil {
		t.Fatal(err)
	}
	if st.CutLines != 1 || st.Lines != 2 || len(evs) != 2 || evs[0].Update.SessionUpdate != event.Raw {
		t.Fatalf("stats %+v kinds %v", st, kinds(evs))
	}
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

func TestUnknownAgentIsAnError(t *testing.T) {
	t.Parallel()
	_, err := Default().Parse(strings.NewReader("x"), Options{Agent: "nope"}, func(*event.Event) {})
	if err == nil || !strings.Contains(err.Error(), "unknown agent") {
		t.Fatalf("err = %v", err)
	}
}

func TestSessionIDIsCarried(t *testing.T) {
	t.Parallel()
	data := `{"type":"system","subtype":"init","session_id":"s1","claude_code_version":"2"}` + "\n" +
		`{"type":"sift.stderr","text":"x"}` + "\n"
	evs, _ := parseBytes(t, []byte(data), Options{})
	if evs[1].SessionID != "s1" {
		t.Fatalf("stderr event session = %q", evs[1].SessionID)
	}
}

func TestRawTextCutsAtRuneBoundary(t *testing.T) {
	t.Parallel()
	b := bytes.Repeat([]byte("é"), MaxRawText) // two bytes each
	s := RawText(b[1:])                        // start mid-rune so the cut lands mid-rune
	if len(s) > MaxRawText || !strings.HasSuffix(s, "é") {
		t.Fatalf("len %d, suffix %q", len(s), s[len(s)-4:])
	}
}
