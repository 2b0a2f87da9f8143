package agents

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents/internal/testfiles"

	"github.com/agentsift/sift/core/event"
)

// lineAtATime hands out one line per Read, so that the driver's buffered
// reader writes each line over the bytes of the line before it: an event
// that kept a reference into the read buffer instead of its own copy of the
// bytes changes after it was emitted.
type lineAtATime struct{ lines [][]byte }

// Read implements io.Reader.
func (r *lineAtATime) Read(p []byte) (int, error) {
	if len(r.lines) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.lines[0])
	r.lines[0] = r.lines[0][n:]
	if len(r.lines[0]) == 0 {
		r.lines = r.lines[1:]
	}
	return n, nil
}

// TestEventsOwnTheirBytes parses every stream and history fixture through a
// reader whose buffer is overwritten line after line, and then by a blank
// line as long as the longest one, and compares the events, encoded only at
// the end, with the goldens: an event aliasing the read buffer fails it.
func TestEventsOwnTheirBytes(t *testing.T) {
	type tc struct {
		name, path, golden string
		kind               Kind
	}
	var cases []tc
	for _, fx := range fixtures(t) {
		cases = append(cases, tc{fx.dir + "/" + fx.name, fx.path,
			filepath.Join("testdata", "events", fx.dir, strings.TrimSuffix(fx.name, filepath.Ext(fx.name))+".jsonl"),
			fx.declared()})
	}
	for _, k := range []Kind{ClaudeHistory, CodexHistory, GeminiHistory} {
		for _, f := range testfiles.HistoryFiles(t, string(k.Harness())) {
			base := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
			cases = append(cases, tc{string(k) + "/" + filepath.Base(f), f,
				filepath.Join("testdata", "events", "history", string(k.Harness()), base+".jsonl"), k})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := os.Stat(c.golden); err != nil {
				t.Skip("no golden")
			}
			data := testfiles.MustRead(t, c.path)
			if !bytes.HasSuffix(data, []byte("\n")) {
				// The blank line must not become part of the last line.
				data = append(data, '\n')
			}
			lines := bytes.SplitAfter(data, []byte("\n"))
			longest := 0
			for _, l := range lines {
				longest = max(longest, len(l))
			}
			lines = append(lines, append(bytes.Repeat([]byte(" "), longest), '\n'))
			var evs []*event.Event
			_, err := Default().Parse(&lineAtATime{lines: lines}, Options{Agent: c.kind},
				func(ev *event.Event) { evs = append(evs, ev) })
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			for _, ev := range evs {
				if err := enc.Encode(ev); err != nil {
					t.Fatal(err)
				}
			}
			compareGoldenReadOnly(t, c.golden, buf.Bytes())
		})
	}
}

// compareGoldenReadOnly is compareGolden that never rewrites the golden:
// TestFixtures owns it.
func compareGoldenReadOnly(t *testing.T, path string, got []byte) {
	t.Helper()
	if *testfiles.Update {
		return
	}
	testfiles.CompareGolden(t, path, got)
}
