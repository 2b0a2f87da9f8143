package agents

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// seedBytes caps a fuzz seed: the fuzzer mutates small inputs better, and a
// stream's first lines are where its harness shows.
const seedBytes = 16 << 10

// fuzzEveryLine fuzzes the parse of a stream declared as each of kinds: it
// never fails or panics and emits an event for every line with text.
func fuzzEveryLine(f *testing.F, kinds ...Kind) {
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, k := range kinds {
			evs, st := parseBytes(t, data, Options{Agent: k})
			assertEveryLine(t, string(k), data, evs, st)
		}
	})
}

// addStreamSeeds adds every recorded stream and agent history of the
// repository (all harnesses) as seeds, each cut to its first lines.
func addStreamSeeds(f *testing.F, add func([]byte)) {
	f.Helper()
	var paths []string
	for _, pat := range []string{"streams/*/*", "history/*/*"} {
		m, err := filepath.Glob(filepath.Join(streamsDir, "..", pat))
		if err != nil {
			f.Fatal(err)
		}
		paths = append(paths, m...)
	}
	n := 0
	for _, p := range paths {
		if filepath.Ext(p) == ".md" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > seedBytes {
			if i := bytes.LastIndexByte(data[:seedBytes], '\n'); i > 0 {
				data = data[:i+1]
			} else {
				data = data[:seedBytes]
			}
		}
		add(data)
		n++
	}
	if n < 40 {
		f.Fatalf("only %d seed streams found", n)
	}
}

// FuzzParse drives the whole parse, sniffer included, over mutated real
// streams: with the harness declared or sniffed, with a sniff window small
// enough for the fuzzer's inputs to overflow, lending events or handing
// them over. It never fails or panics, counts every line and byte, emits
// an event for every line with text, and lending changes nothing emitted.
func FuzzParse(f *testing.F) {
	addStreamSeeds(f, func(b []byte) { f.Add(b, uint8(0)) })
	f.Add([]byte("\n\n\nnoise\n\n{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"claude_code_version\":\"2\"}\n"), uint8(4))
	kinds := Default().Kinds()
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		opt := Options{}
		if k&1 == 1 {
			opt.Agent = kinds[int(k>>3)%len(kinds)]
		}
		if k&4 != 0 {
			opt.windowLines, opt.windowBytes = 2, 64
		}
		evs, st := parseBytes(t, data, opt)
		want := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			want++
		}
		if st.Lines != want || st.Bytes != int64(len(data)) {
			t.Fatalf("lines %d bytes %d, want %d %d", st.Lines, st.Bytes, want, len(data))
		}
		if opt.Agent != "" && Kind(st.Agent) != opt.Agent {
			t.Fatalf("declared %s, attributed to %s", opt.Agent, st.Agent)
		}
		assertEveryLine(t, string(st.Agent), data, evs, st)
		owned := make([]string, len(evs))
		for i, ev := range evs {
			b, err := json.Marshal(ev)
			if err != nil {
				t.Fatalf("event %d does not marshal: %v", i, err)
			}
			owned[i] = string(b)
		}
		opt.Borrow, opt.scribble = true, true
		var lent []string
		if _, err := Default().Parse(bytes.NewReader(data), opt, func(ev *event.Event) {
			b, _ := json.Marshal(ev)
			lent = append(lent, string(b))
		}); err != nil {
			t.Fatal(err)
		}
		if len(lent) != len(owned) {
			t.Fatalf("%d events lent, %d owned", len(lent), len(owned))
		}
		for i := range owned {
			if lent[i] != owned[i] {
				t.Fatalf("event %d:\n lent %s\nowned %s", i, lent[i], owned[i])
			}
		}
	})
}
