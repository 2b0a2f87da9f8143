package summary

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
)

// seedBytes caps a fuzz seed: the fuzzer mutates small inputs better, and a
// stream's first lines are where its harness shows.
const seedBytes = 16 << 10

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

// FuzzAnalyze summarizes mutated real streams of every harness, sniffed or
// declared, with and without an invocation window: Analyze never fails on
// a stream read from memory (a fault it recovers from is a failure here),
// the counts agree with the input and with each other, every reference
// between calls and turns resolves, and the summary and review events
// encode as JSON.
func FuzzAnalyze(f *testing.F) {
	addStreamSeeds(f, func(b []byte) { f.Add(b, uint8(0)) })
	f.Add([]byte(orphanParentStream), uint8(0))
	f.Add([]byte("plain text\nError: boom\n{\"type\":\"sift.stderr\",\"text\":\"x\"}\n"), uint8(3))
	kinds := agents.Default().Kinds()
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		opt := Options{Agent: string(kinds[int(k>>2)%len(kinds)]), Start: t0, End: at(60)}
		if k&1 == 0 {
			opt.Agent = ""
		}
		if k&2 == 0 {
			opt.Start, opt.End = time.Time{}, time.Time{}
		}
		s, rev, err := Analyze(bytes.NewReader(data), opt)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			lines++
		}
		if s.LineCount != lines || s.ByteCount != int64(len(data)) || s.ToolCallCount != len(s.ToolCalls) ||
			len(s.Tail) > TailLines || s.StallCount > len(s.Stalls) || s.RawLineCount > lines || s.ErrorLineCount > lines {
			t.Fatalf("counts out of range for %d lines: %+v", lines, s)
		}
		for name, v := range map[string]*int64{"thinkingMs": s.ThinkingMs, "executingMs": s.ExecutingMs,
			"totalDurationMs": s.TotalDurationMs} {
			if v != nil && *v < 0 {
				t.Errorf("%s = %d", name, *v)
			}
		}
		turns := map[string]bool{}
		for _, tn := range s.Turns {
			if turns[tn.TurnID] {
				t.Fatalf("turn %s twice", tn.TurnID)
			}
			turns[tn.TurnID] = true
		}
		calls := map[string]bool{}
		for _, c := range s.ToolCalls {
			calls[c.ID] = true
			if c.TurnID != "" && !turns[c.TurnID] {
				t.Fatalf("call %q in unknown turn %q", c.ID, c.TurnID)
			}
		}
		for _, tn := range s.Turns {
			for _, id := range tn.ToolCallIDs {
				if !calls[id] {
					t.Fatalf("turn %s lists unknown call %q", tn.TurnID, id)
				}
			}
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back Summary
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("summary JSON does not read back: %v", err)
		}
		if _, err := json.Marshal(rev); err != nil {
			t.Fatal(err)
		}
	})
}
