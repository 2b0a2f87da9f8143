package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/summary"
)

// manyCalls is the size of the stream issue #12 measured: 300,000 tool
// calls (here about 340 MB, in 188,000 turns).
const manyCalls = 300_000

// liveHeap returns the bytes the heap holds after a collection.
func liveHeap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// TestSummaryOfManyCalls summarizes a 300,000-call claude stream and checks
// that the summary lists every call with each capped field within its cap,
// and that memory follows the calls with a small, fixed cost per call
// (turns included), measured as the live heap after a collection at each
// stage. On main the builder held 1.26 KB a call and the finished summary
// 1.5 KB (its verdicts pointed into the builder's records, keeping them
// all), and Finish built every review event besides; now they hold 0.95,
// 0.55 and, together, 1.35 KB, and the bounds leave a quarter to a half
// more. Then it runs `sift import` and `sift summary --json` on the stream
// as processes and bounds their peak RSS.
func TestSummaryOfManyCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and summarizes a 340 MB stream")
	}
	path := writeToolCallStream(t, t.TempDir(), "wi", "work-1-abcdef.jsonl", manyCalls)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	base := liveHeap()
	b := summary.NewBuilder(summary.Options{})
	st, err := agents.Default().Parse(bufio.NewReaderSize(f, 256<<10), agents.Options{Borrow: true}, b.Add)
	if err != nil {
		t.Fatal(err)
	}
	builder := liveHeap() - base
	s, rev := b.FinishEvents(st)
	b = nil
	finished := liveHeap() - base
	events := 0
	if err := rev.Each(func(*summary.ReviewEvent) error { events++; return nil }); err != nil {
		t.Fatal(err)
	}
	rev = nil
	held := liveHeap() - base
	perCall := func(n int64) int64 { return n / manyCalls }
	t.Logf("%d calls, %d turns, %d review events: the builder holds %d B a call, with the finished summary %d, the summary alone %d",
		s.ToolCallCount, len(s.Turns), events, perCall(builder), perCall(finished), perCall(held))
	for _, m := range []struct {
		what       string
		got, limit int64
	}{
		{"the builder, once the stream is read", builder, 1200},
		{"the builder and the finished summary", finished, 1800},
		{"the finished summary", held, 800},
	} {
		if perCall(m.got) > m.limit {
			t.Errorf("%s holds %d bytes a call (%d MB), want at most %d", m.what, perCall(m.got), m.got>>20, m.limit)
		}
	}

	if s.ToolCallCount != manyCalls || len(s.ToolCalls) != manyCalls {
		t.Fatalf("%d tool calls (%d listed), want %d", s.ToolCallCount, len(s.ToolCalls), manyCalls)
	}
	if events < 2*manyCalls {
		t.Errorf("%d review events, want a start and an end per call", events)
	}
	const marker = len(" …")
	within := func(what, v string, limit int) bool {
		if len(v) > limit+marker || !utf8.ValidString(v) {
			t.Errorf("%s is %d bytes, cap %d: %.80q", what, len(v), limit, v)
			return false
		}
		return true
	}
	ids := make(map[string]bool, manyCalls)
	var failed, cutErrors, cutInputs, bigOutputs int
	for _, c := range s.ToolCalls {
		ids[c.ID] = true
		ok := within("id", c.ID, summary.MaxCallID) && within("name", c.Name, summary.MaxToolName) &&
			within("kind", c.Kind, summary.MaxToolName) && within("title", c.Title, summary.MaxTitle) &&
			within("input summary", c.InputSummary, summary.MaxInputSummary)
		if c.Error != nil {
			failed++
			ok = ok && within("error", *c.Error, summary.MaxErrorText)
			if strings.HasSuffix(*c.Error, "…") {
				cutErrors++
			}
		}
		if strings.HasSuffix(c.InputSummary, "…") {
			cutInputs++
		}
		if c.Success == nil || c.OutputBytes == nil {
			t.Fatalf("call %s has no verdict or no output size", c.ID)
		}
		if *c.OutputBytes > 2048 {
			bigOutputs++
		}
		if !ok {
			t.FailNow()
		}
	}
	if len(ids) != manyCalls {
		t.Errorf("%d distinct call ids, want %d", len(ids), manyCalls)
	}
	if failed != manyCalls/80 || cutErrors == 0 || cutInputs == 0 || bigOutputs < manyCalls/100 {
		t.Errorf("%d failed calls (%d errors cut), %d input summaries cut, %d outputs over 2 KB", failed, cutErrors, cutInputs, bigOutputs)
	}
	runtime.KeepAlive(s)
	s = nil

	// The commands, as real processes: their peak RSS. On main `sift
	// import` of this stream peaked at 2.7 GB and `sift summary --json`
	// at 1.5 GB; now about 0.7 and 0.5 GB.
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from Linux's rusage")
	}
	bin := e2eBuildSift(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("Enabled: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  []string
		limit int64
	}{
		{[]string{"import", "--db", filepath.Join(dir, "sift.db"), "--logs", filepath.Join(dir, "logs"), "--config", cfg, path}, 1536 << 20},
		{[]string{"summary", path, "--json"}, 1 << 30},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir)
		cmd.Stdout = io.Discard
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("sift %s: %v\n%s", c.args[0], err, stderr.String())
		}
		rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
		t.Logf("sift %s: peak RSS %d MB", c.args[0], rss>>20)
		if rss > c.limit {
			t.Errorf("sift %s of %d tool calls peaked at %d MB, want at most %d", c.args[0], manyCalls, rss>>20, c.limit>>20)
		}
	}
}
