package summary

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// benchFixture is the claude stream the benchmark repeats: the largest,
// with subagents, tool results and usage on every assistant line.
const benchFixture = "claude/claude-orchestrator-task-subagent-reserialized.jsonl"

// bigStream builds a real-shaped stream of at least n bytes in memory by
// repeating a claude fixture's lines, with message and tool-use ids made
// unique per repetition as they would be in a long session.
func bigStream(tb testing.TB, n int) []byte {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join(streamsDir, benchFixture))
	if err != nil {
		tb.Fatal(err)
	}
	if src[len(src)-1] != '\n' {
		src = append(src, '\n')
	}
	out := make([]byte, 0, n+len(src)+len(src)/8)
	for i := 0; len(out) < n; i++ {
		rep := src
		tag := fmt.Sprintf("r%d", i)
		rep = bytes.ReplaceAll(rep, []byte(`"msg_`), []byte(`"msg_`+tag))
		rep = bytes.ReplaceAll(rep, []byte(`"toolu_`), []byte(`"toolu_`+tag))
		out = append(out, rep...)
	}
	return out
}

// BenchmarkSummarize measures parse plus summary of a ≥100 MB claude
// stream on one core: go test ./core/summary -run '^$' -bench Summarize
// -benchtime 3x -cpu 1.
func BenchmarkSummarize(b *testing.B) {
	data := bigStream(b, 100<<20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		s, _, err := Analyze(bytes.NewReader(data), Options{Agent: string(agents.Claude)})
		if err != nil {
			b.Fatal(err)
		}
		if s.ToolCallCount == 0 {
			b.Fatal("no tool calls summarized")
		}
	}
	// On a shared machine wall time includes waiting for a core; the
	// process's CPU time (GC included) gives the rate per core.
	if d := cpuTime() - cpu0; d > 0 {
		b.ReportMetric(float64(len(data))*float64(b.N)/1e6/d.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkParseOnly is BenchmarkSummarize without the summary, to show
// what the summarizer adds to the parser.
func BenchmarkParseOnly(b *testing.B) {
	data := bigStream(b, 100<<20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := agents.Default().Parse(bytes.NewReader(data), agents.Options{Agent: agents.Claude}, func(*event.Event) {}); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// heapAfter runs a stream through a builder and returns the live heap the
// builder holds once the stream is read, and the summary.
func heapAfter(t *testing.T, data []byte, agent agents.Kind) (int64, *Summary) {
	t.Helper()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	b := NewBuilder(Options{Agent: string(agent)})
	st, err := agents.Default().Parse(bytes.NewReader(data), agents.Options{Agent: agent}, b.Add)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	s, _ := b.Finish(st)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc), s
}

// TestMemoryBounded checks that the builder's memory follows the tool
// calls and turns the summary lists (about 1 KB a call), not the events or
// the size of lines: a 40 MB real-shaped stream, and a stream of forty
// 1 MB tool outputs.
func TestMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 40 MB stream")
	}
	data := bigStream(t, 40<<20)
	grown, s := heapAfter(t, data, agents.Claude)
	t.Logf("stream %d MB, %d tool calls, %d turns: builder holds %.1f MB", len(data)>>20, s.ToolCallCount, len(s.Turns), float64(grown)/(1<<20))
	if limit := int64(s.ToolCallCount)*1536 + 1<<20; grown > limit {
		t.Errorf("builder holds %d bytes for %d tool calls, want at most %d", grown, s.ToolCallCount, limit)
	}
	runtime.KeepAlive(data)

	var big bytes.Buffer
	out := bytes.Repeat([]byte("x"), 1<<20)
	for i := range 40 {
		fmt.Fprintf(&big, `{"type":"assistant","message":{"id":"msg_%d","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":"cat big"}}],"usage":{"input_tokens":1,"output_tokens":1}},"session_id":"s"}`+"\n", i, i)
		fmt.Fprintf(&big, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"%s"}]},"session_id":"s"}`+"\n", i, out)
	}
	checkBig := func(agent agents.Kind, data []byte) {
		t.Helper()
		grown, s := heapAfter(t, data, agent)
		t.Logf("%s: stream %d MB of 1 MB lines, %d tool calls: parser and builder hold %.1f KB", agent, len(data)>>20, s.ToolCallCount, float64(grown)/(1<<10))
		if s.ToolCallCount != 40 || s.ToolCalls[0].OutputBytes == nil || *s.ToolCalls[0].OutputBytes != 1<<20 {
			t.Fatalf("%s: big outputs not parsed: %d calls", agent, s.ToolCallCount)
		}
		// The line reader and the JSON decoder's pooled buffers keep a
		// few copies of the largest line; nothing grows with the number
		// of lines, and no kept id pins a line's output.
		if limit := int64(4 << 20); grown > limit {
			t.Errorf("%s: holds %d bytes after forty 1 MB lines, want at most %d", agent, grown, limit)
		}
		runtime.KeepAlive(data)
	}
	checkBig(agents.Claude, big.Bytes())
	var cx bytes.Buffer
	for i := range 40 {
		fmt.Fprintf(&cx, `{"type":"item.started","item":{"id":"item_%d","type":"command_execution","command":"cat big","aggregated_output":"","exit_code":null,"status":"in_progress"}}`+"\n", i)
		fmt.Fprintf(&cx, `{"type":"item.completed","item":{"id":"item_%d","type":"command_execution","command":"cat big","aggregated_output":"%s","exit_code":0,"status":"completed"}}`+"\n", i, out)
	}
	checkBig(agents.Codex, cx.Bytes())
}
