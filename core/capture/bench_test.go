package capture

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCapture measures the structured stdout path: 32 KiB pipe reads
// split into lines and queued, each redacted with JSON preserved by the
// redactor goroutine, through the capped buffered sink into a real file. The input is every recorded JSON stream
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
		r := newRecorder(Spec{Stdout: io.Discard, MaxFileBytes: 1 << 30, create: func() (io.WriteCloser, string, error) {
			return f, f.Name(), nil
		}}, Structured)
		for rest := input; len(rest) > 0; {
			n := min(32<<10, len(rest))
			r.stdout.Write(rest[:n])
			rest = rest[n:]
		}
		r.close(time.Minute, nil)
		if r.err != nil {
			b.Fatal(r.err)
		}
	}
}
