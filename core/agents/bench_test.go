package agents

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/core/event"
)

// benchStreams names the real fixture each harness's benchmark repeats.
var benchStreams = map[Kind]string{
	Claude:   "claude/evolve-2.1.7-run2-resumed-multitool.jsonl",
	Codex:    "codex/takopi-banteg-commands-reasoning.jsonl",
	Gemini:   "gemini/evolve-run2-resumed-four-tools.jsonl",
	OpenCode: "opencode/ortus-1.18.27-three-runs-mcp.jsonl",
	Droid:    "droid/vibekanban-edits-and-execution.jsonl",
	Cursor:   "cursor/vincent-2026.08.11-edit-shell-tools.jsonl",
	Qwen:     "qwen/evolve-0.7.0-run2-resumed.jsonl",
	// The on-disk histories `sift import --history` reads.
	ClaudeHistory: "../history/claude/e2e-claude-code-2.1.332-scripted.jsonl",
	CodexHistory:  "../history/codex/e2e-codex-0.171.0-scripted.jsonl",
	GeminiHistory: "../history/gemini/e2e-gemini-cli-0.61.0-scripted.jsonl",
}

// repeatStream repeats a fixture's lines until the stream holds at least
// size bytes.
func repeatStream(tb testing.TB, rel string, size int) []byte {
	tb.Helper()
	one := fixtureLines(tb, rel)
	out := make([]byte, 0, size+len(one))
	for len(out) < size {
		out = append(out, one...)
	}
	return out
}

// fixtureLines reads a stream fixture, ending its last line with a
// newline if it has none, so that it can be repeated.
func fixtureLines(tb testing.TB, rel string) []byte {
	tb.Helper()
	one, err := os.ReadFile(filepath.Join(streamsDir, rel))
	if err != nil {
		tb.Fatal(err)
	}
	if !bytes.HasSuffix(one, []byte("\n")) {
		one = append(one, '\n')
	}
	return one
}

// BenchmarkParse parses ≥100 MB made of a real fixture's lines per harness
// and reports MB/s (from SetBytes), allocations per op and lines per op.
func BenchmarkParse(b *testing.B) {
	for _, k := range Default().Kinds() {
		rel, ok := benchStreams[k]
		if !ok {
			continue
		}
		b.Run(string(k), func(b *testing.B) {
			data := repeatStream(b, rel, 100<<20)
			lines := bytes.Count(data, []byte("\n"))
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			var n int
			for i := 0; i < b.N; i++ {
				if _, err := Default().Parse(bytes.NewReader(data), Options{Agent: k}, func(*event.Event) { n++ }); err != nil {
					b.Fatal(err)
				}
			}
			// On a shared machine wall time includes waiting for a core;
			// the process's CPU time (GC included) gives the rate per core.
			if d := cpuTime() - cpu0; d > 0 {
				b.ReportMetric(float64(len(data))*float64(b.N)/1e6/d.Seconds(), "MB/cpu-s")
			}
			// allocs/line = allocs/op ÷ lines/op.
			b.ReportMetric(float64(lines), "lines/op")
		})
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
