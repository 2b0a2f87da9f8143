package capture

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCapture measures the structured stdout path: 32 KiB pipe reads
// split into lines, each redacted with JSON preserved, through the capped
// buffered sink into a real file. The input is every recorded JSON stream
// in testdata/streams.
func BenchmarkCapture(b *testing.B) {
	files, _ := filepath.Glob("../../testdata/streams/*/*.jsonl")
	var input []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		input = append(input, data...)
		if !bytes.HasSuffix(input, []byte("\n")) {
			input = append(input, '\n')
		}
	}
	if len(input) == 0 {
		b.Fatal("no fixtures")
	}
	dir := b.TempDir()
	b.SetBytes(int64(len(input)))
	b.ResetTimer()
	for i := range b.N {
		f, err := os.Create(filepath.Join(dir, "work-1-"+itoa(int64(i%4))+".jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		r := &recorder{sink: NewSink(f, 1<<30, func(err error) { b.Fatal(err) })}
		sp := &lineSplitter{pass: io.Discard, max: 1 << 30, line: r.stdoutLine(Structured), flush: r.sink.Flush, flushSoon: r.sink.FlushSoon}
		for rest := input; len(rest) > 0; {
			n := min(32<<10, len(rest))
			sp.Write(rest[:n])
			rest = rest[n:]
		}
		sp.Close()
		if err := r.sink.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
