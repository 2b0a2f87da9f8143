package agents

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// sniffFixture is the real claude stream the sniffer tests put after
// their preambles.
const sniffFixture = "claude/evolve-2.1.7-run1-write-file.jsonl"

// fixtureKinds parses the fixture alone: the events a preamble must not
// change.
func fixtureKinds(t *testing.T) ([]byte, []event.Kind) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(streamsDir, sniffFixture))
	if err != nil {
		t.Fatal(err)
	}
	evs, st := parseBytes(t, data, Options{})
	if Kind(st.Agent) != Claude {
		t.Fatalf("fixture sniffed as %s", st.Agent)
	}
	return data, kinds(evs)
}

// parseAfter parses a preamble then the fixture, both streamed, and returns
// the kinds of the events after the preamble's, the stats and the peak
// heap in use and the bytes allocated while parsing.
func parseAfter(t *testing.T, preamble io.Reader, fixture []byte, opt Options) (pre, after []event.Kind, st Stats, peak, alloc uint64) {
	t.Helper()
	var err error
	var before, end runtime.MemStats
	peak = peakHeap(func() {
		runtime.ReadMemStats(&before)
		st, err = Default().Parse(io.MultiReader(preamble, strings.NewReader(string(fixture))), opt, func(ev *event.Event) {
			if ev.Update.SessionUpdate == event.Raw && after == nil {
				pre = append(pre, ev.Update.SessionUpdate)
				return
			}
			after = append(after, ev.Update.SessionUpdate)
		})
		runtime.ReadMemStats(&end)
	})
	if err != nil {
		t.Fatal(err)
	}
	return pre, after, st, peak, end.TotalAlloc - before.TotalAlloc
}

// TestSniffAfterMillionsOfBlankLines: 512 MiB of blank lines before a real
// claude stream. The sniffer holds no line it has read, so memory stays
// far from the input's size, and the stream is still read as claude.
func TestSniffAfterMillionsOfBlankLines(t *testing.T) {
	if testing.Short() {
		t.Skip("512 MiB of blank lines")
	}
	data, want := fixtureKinds(t)
	const blank = 512 << 20
	pre, got, st, peak, alloc := parseAfter(t, io.LimitReader(repeatReader('\n'), blank), data, Options{})
	if Kind(st.Agent) != Claude || !st.Sniffed || len(pre) != 0 || !slices.Equal(got, want) {
		t.Errorf("agent %s sniffed %v, preamble events %v, events %v, want %v", st.Agent, st.Sniffed, pre, got, want)
	}
	if st.Bytes != blank+int64(len(data)) {
		t.Errorf("bytes %d", st.Bytes)
	}
	t.Logf("%d MiB of blank lines: peak heap in use %.1f MB, allocated %.1f MB", blank>>20, float64(peak)/(1<<20), float64(alloc)/(1<<20))
	if peak > 64<<20 || alloc > 64<<20 {
		t.Errorf("peak heap in use %d MB, allocated %d MB over %d MiB of blank lines; want < 64 MB", peak>>20, alloc>>20, blank>>20)
	}
}

// TestSniffPastAHugeFirstLine: a first line of 20 MB (over the sniff
// window) or 80 MB (over the line cap, so cut) does not make the file
// unknown: the real stream after it is read as claude.
func TestSniffPastAHugeFirstLine(t *testing.T) {
	if testing.Short() {
		t.Skip("lines of 20 and 80 MB")
	}
	data, want := fixtureKinds(t)
	for _, tc := range []struct {
		name  string
		first io.Reader
		size  int
	}{
		{"20 MB of text", io.LimitReader(repeatReader('x'), 20<<20), 20 << 20},
		{"20 MB JSON object", io.MultiReader(strings.NewReader(`{"junk":"`), io.LimitReader(repeatReader('x'), 20<<20), strings.NewReader(`"}`)), 20<<20 + 11},
		{"80 MB over the line cap", io.LimitReader(repeatReader('{'), 80<<20), 80 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pre, got, st, peak, alloc := parseAfter(t, io.MultiReader(tc.first, strings.NewReader("\n")), data, Options{})
			if Kind(st.Agent) != Claude || !st.Sniffed || len(pre) != 1 || !slices.Equal(got, want) {
				t.Errorf("agent %s, preamble events %v, events %v, want %v", st.Agent, pre, got, want)
			}
			if cut := tc.size > DefaultMaxLine; st.CutLines != map[bool]int{false: 0, true: 1}[cut] {
				t.Errorf("cut lines %d, want cut %v", st.CutLines, cut)
			}
			// The line reader gathers the line (up to the cap) in a
			// buffer it doubles (at most twice the line in all), a JSON
			// decoder asked by the sniffer reads it into a buffer it
			// doubles too (as much again), and the sniffer keeps none of
			// it. How far each doubling overshoots depends on the read
			// sizes, so the bound on what is allocated leaves room for
			// both; what is held at once stays under four lines.
			kept := uint64(min(tc.size, DefaultMaxLine))
			t.Logf("peak heap in use %.1f MB, allocated %.1f MB", float64(peak)/(1<<20), float64(alloc)/(1<<20))
			if alloc > 6*kept+8<<20 || peak > 4*kept {
				t.Errorf("allocated %d MB, peak heap in use %d MB, for a line of %d MB", alloc>>20, peak>>20, tc.size>>20)
			}
		})
	}
}

// TestSniffWindowOverflowKeepsLinesAsRaw: more unreadable lines than the
// sniff window holds are each kept as a raw event, in order, and the
// stream that follows is read as claude.
func TestSniffWindowOverflowKeepsLinesAsRaw(t *testing.T) {
	t.Parallel()
	data, want := fixtureKinds(t)
	for _, n := range []int{10, 4096 + 500} {
		noise := strings.Repeat("sandbox: starting\n", n)
		evs, st := parseBytes(t, append([]byte(noise), data...), Options{})
		got := kinds(evs)
		if Kind(st.Agent) != Claude || len(got) != n+len(want) || !slices.Equal(got[n:], want) {
			t.Fatalf("%d noise lines: agent %s, %d events", n, st.Agent, len(got))
		}
		for i, ev := range evs[:n] {
			if ev.Update.SessionUpdate != event.Raw || ev.Line != i+1 || ev.Update.Text != "sandbox: starting" {
				t.Fatalf("%d noise lines: event %d = %+v", n, i, ev)
			}
		}
	}
}

// TestSniffGivesUpAfterUnclaimedJSONLines: twenty JSON lines no harness
// claims make the stream unknown, however it goes on.
func TestSniffGivesUpAfterUnclaimedJSONLines(t *testing.T) {
	t.Parallel()
	data, _ := fixtureKinds(t)
	junk := strings.Repeat(`{"level":"info","msg":"hello"}`+"\n", SniffLines)
	evs, st := parseBytes(t, append([]byte(junk), data...), Options{})
	if Kind(st.Agent) != Unknown || !st.Sniffed {
		t.Fatalf("agent %s", st.Agent)
	}
	for _, ev := range evs {
		if ev.Update.SessionUpdate != event.Raw {
			t.Fatalf("event %+v of an unknown stream is not raw", ev)
		}
	}
}

// TestSniffLineAnswersAsSniff: the Scratch's memory of the last line
// sniffed never changes an answer, asked twice, after another line, or of
// another registry.
func TestSniffLineAnswersAsSniff(t *testing.T) {
	t.Parallel()
	var sc Scratch
	claude, err := Default().Lookup(Claude)
	if err != nil {
		t.Fatal(err)
	}
	reg, claudeOnly := Default(), NewRegistry(claude)
	for _, f := range fixtures(t) {
		data, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range bytes.SplitN(data, []byte("\n"), 6) {
			for _, r := range []*Registry{reg, reg, claudeOnly} {
				if got, want := r.SniffLine(&sc, line), r.Sniff([][]byte{line}); got != want {
					t.Fatalf("%s line %d: SniffLine %s, Sniff %s", f.name, i+1, got, want)
				}
			}
		}
	}
}
