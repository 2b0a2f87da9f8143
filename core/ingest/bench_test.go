package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/pricing"
	"github.com/agentsift/sift/core/summary"
)

// benchIDRe matches the ids a benchmark stream renews per copy of its
// fixture: UUIDs and the harnesses' message, tool-call and item ids.
var benchIDRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:msg|toolu|call|req|item|fc)_[A-Za-z0-9]{6,}`)

// benchStreams returns every stream fixture repeated to at least size
// bytes, its ids renewed per copy (as a long session's are), in the mix of
// harnesses store's BenchmarkImport reads.
func benchStreams(b *testing.B, size int) [][]byte {
	b.Helper()
	var out [][]byte
	err := filepath.WalkDir(filepath.Join(fixtures, "streams"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(p); ext != ".jsonl" && ext != ".txt" {
			return nil
		}
		one, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !bytes.HasSuffix(one, []byte("\n")) {
			one = append(one, '\n')
		}
		var s []byte
		for i := 0; len(s) < size; i++ {
			s = append(s, benchIDRe.ReplaceAllFunc(one, func(id []byte) []byte {
				return fmt.Appendf(nil, "%s%x", id, i)
			})...)
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkAnalyze is the reading side of an import without the files and
// the store: every stream fixture, repeated to 256 KB, parsed once by a
// reader as the import's are (events lent, sniffed, review events made).
// It reports MB/s and the allocations per byte that the import's
// collector then pays for.
func BenchmarkAnalyze(b *testing.B) {
	streams := benchStreams(b, 256<<10)
	var size int64
	for _, s := range streams {
		size += int64(len(s))
	}
	opt := Options{Summary: summary.Options{Prices: pricing.Default()}}
	b.SetBytes(size)
	b.ReportAllocs()
	// The reader's buffer, which the parse reads through (newReader).
	br := bufio.NewReaderSize(nil, readBufSize)
	// A reader's parser, whose Scratch and builder serve stream after
	// stream.
	p := parser{reg: agents.Default(), scratch: &agents.Scratch{}, builder: summary.NewBuilder(summary.Options{})}
	cpu0 := cpuTime()
	for b.Loop() {
		for _, s := range streams {
			br.Reset(bytes.NewReader(s))
			sum, rev, err := analyze(p, br, opt.Summary, nil)
			if err != nil || sum.LineCount == 0 {
				b.Fatal(err)
			}
			if err := rev.Each(func(*summary.ReviewEvent) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
	}
	// On a shared machine wall time includes waiting for a core, and a
	// single reader's collector works on the other core for free: the
	// process's CPU time (GC included) gives the rate per core.
	if d := cpuTime() - cpu0; d > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/1e6/d.Seconds(), "MB/cpu-s")
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
