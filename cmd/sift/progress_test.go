package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/ingest"
)

// TestImportProgressLeavesNoStaleLine replays issue 16's `sift import
// --history`: the history folders took four seconds to list, the first
// file read then printed "importing: 1/1000 files … ETA 1h2m29s", and the
// import ended a second later with its closing line, the stale progress
// line left as the last word about it. Progress and the closing line go
// to one buffer here, as a terminal shows them: no line may promise an
// ETA from the first file alone, the last progress line says the import
// is done, and nothing follows the closing line.
func TestImportProgressLeavesNoStaleLine(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	clock := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	p := newProgressPrinter(&out)
	p.now = func() time.Time { return clock }
	total := int64(1000 * 10_500)
	for i := 1; i <= 1000; i++ {
		// The find took 4 s; then each file takes a millisecond.
		clock = clock.Add(time.Millisecond)
		p.report(ingest.Progress{FilesDone: i, FilesTotal: 1000, BytesDone: int64(i) * 10_500, BytesTotal: total,
			Elapsed: 4*time.Second + time.Duration(i)*time.Millisecond})
	}
	p.done()
	p.report(ingest.Progress{FilesDone: 1000, FilesTotal: 1000, BytesDone: total, BytesTotal: total, Elapsed: 5 * time.Second})
	reportImport(&out, &out, "import", ingest.Result{Files: 1000, Sessions: 1000, Bytes: total, Elapsed: 5 * time.Second}, nil)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 2 {
		t.Fatalf("output %q", out.String())
	}
	for _, l := range lines {
		if strings.Contains(l, "ETA") && !strings.Contains(l, "ETA ?") {
			t.Errorf("an ETA from the first file alone: %q", l)
		}
	}
	if got := lines[len(lines)-2]; got != "importing: 1000/1000 files  10.5 MB/10.5 MB  done" {
		t.Errorf("the last progress line is %q, want the import done", got)
	}
	if got := lines[len(lines)-1]; !strings.HasPrefix(got, "1000 files, 1000 sessions") {
		t.Errorf("the closing line is not last: %q", out.String())
	}
}
