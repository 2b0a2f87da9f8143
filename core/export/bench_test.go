package export

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/textsafe"
)

// demoStreams reads the demo's sample streams (cmd/sift/demo/streams),
// the sessions of "demo sizes".
func demoStreams(b *testing.B) [][]byte {
	b.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "cmd", "sift", "demo", "streams", "*", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("demo streams: %v", err)
	}
	var out [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// BenchmarkExportATIF1000 exports 1,000 sessions of the demo's sizes as
// ATIF trajectories per op, the way `sift export --all` does: the stored
// summary is at hand, the stream is parsed once and the trajectory
// encoded.
func BenchmarkExportATIF1000(b *testing.B) {
	streams := demoStreams(b)
	sums := make([]*summary.Summary, len(streams))
	for i, s := range streams {
		sb := summary.NewBuilder(summary.Options{NoReviewEvents: true})
		st, err := agents.Default().Parse(bytes.NewReader(s), agents.Options{}, func(ev *event.Event) { sb.Add(ev) })
		if err != nil {
			b.Fatal(err)
		}
		sums[i], _ = sb.Finish(st)
	}
	var bytesIn int64
	for i := range 1000 {
		bytesIn += int64(len(streams[i%len(streams)]))
	}
	b.SetBytes(bytesIn)
	b.ReportAllocs()
	for b.Loop() {
		for i := range 1000 {
			k := i % len(streams)
			t, err := StreamTrajectory(bytes.NewReader(streams[k]), summary.Options{}, Findings{Summary: sums[k]})
			if err != nil {
				b.Fatal(err)
			}
			enc := textsafe.NewEncoder(io.Discard)
			enc.SetIndent("", "  ")
			if err := enc.Encode(t); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkExportACP1000 is BenchmarkExportATIF1000 for ACP lines.
func BenchmarkExportACP1000(b *testing.B) {
	streams := demoStreams(b)
	b.ReportAllocs()
	for b.Loop() {
		for i := range 1000 {
			if err := StreamACP(bytes.NewReader(streams[i%len(streams)]), "", io.Discard, "s"); err != nil {
				b.Fatal(err)
			}
		}
	}
}
