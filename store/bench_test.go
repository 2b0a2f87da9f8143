package store

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
)

// The benchmark corpus: at least 500 MB in at least 2,000 files laid out as
// sift's capture writes them, made by repeating the real fixtures with
// fresh ids. It is generated once into the temporary directory and reused.
const (
	benchFiles    = 2000
	benchMinBytes = 500 << 20
)

// idRe matches the ids worth renewing per copy: UUIDs and the harnesses'
// message, tool-call and item ids.
var idRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:msg|toolu|call|req|item|fc)_[A-Za-z0-9]{6,}`)

// benchCorpus returns the corpus root, generating it when missing.
func benchCorpus(b *testing.B) (string, int64) {
	b.Helper()
	root := filepath.Join(os.TempDir(), "sift-store-bench-corpus-v2")
	if n, size := corpusSize(root); n >= benchFiles && size >= benchMinBytes {
		return root, size
	}
	os.RemoveAll(root)
	tmpl := templates(b, 0)
	rng := rand.New(rand.NewPCG(4, 2))
	per := int64(benchMinBytes)/benchFiles + 1
	var total int64
	phases := []string{"work", "rework", "merge", "audit-llm-security:llm-review", "audit-llm-style"}
	for i := range benchFiles {
		t := tmpl[i%len(tmpl)]
		var buf bytes.Buffer
		// Long sessions: the template repeated (as a resumed run would)
		// until the file is its share of the corpus, varying in size.
		want := per/2 + rng.Int64N(per)
		for int64(buf.Len()) < want {
			buf.Write(freshIDs(t, rng))
		}
		name := fmt.Sprintf("%s-%d-%06x.jsonl", phases[i%len(phases)], 1+i%3, rng.IntN(1<<24))
		p := filepath.Join(root, fmt.Sprintf("wi-%04d", i/8), name)
		writeFile(b, p, buf.Bytes())
		total += int64(buf.Len())
	}
	for total < benchMinBytes { // top up a few files to the minimum
		p := filepath.Join(root, "wi-extra", fmt.Sprintf("work-1-%06x.jsonl", total%(1<<24)))
		data := bytes.Repeat(tmpl[0], 64)
		writeFile(b, p, data)
		total += int64(len(data))
	}
	_, total = corpusSize(root)
	return root, total
}

func corpusSize(root string) (int, int64) {
	var n int
	var size int64
	filepath.Walk(root, func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			n++
			size += info.Size()
		}
		return nil
	})
	return n, size
}

// BenchmarkImport imports the corpus into a fresh store as `sift import`
// does (core/ingest), so that the figure is the command's: opening the new
// database and closing it (its last checkpoint) are timed with the import.
// Each round's database is removed and synced away before the next starts.
func BenchmarkImport(b *testing.B) {
	root, size := benchCorpus(b)
	benchImportFresh(b, root, size)
}

// The small-files corpus: 5,400 real-shaped sessions of about 15 KB, ten
// per work item, laid out as sift's capture writes them. Each is a
// fixture, cut at a line to at most twice the size or repeated with fresh
// ids up to it. Many small files weigh the import's cost per file (find,
// open, stat, the write's rows) against its cost per byte.
const (
	smallFiles = 5400
	smallBytes = 15 << 10
)

// smallCorpus returns the small-files corpus root, generating it when
// missing.
func smallCorpus(b *testing.B) (string, int64) {
	b.Helper()
	root := filepath.Join(os.TempDir(), "sift-store-bench-small-v1")
	if n, size := corpusSize(root); n == smallFiles {
		return root, size
	}
	os.RemoveAll(root)
	tmpl := templates(b, 2*smallBytes)
	rng := rand.New(rand.NewPCG(15, 4))
	phases := []string{"work", "rework", "merge", "audit-llm-security:llm-review", "audit-llm-style"}
	for i := range smallFiles {
		var buf bytes.Buffer
		for want := smallBytes/2 + rng.IntN(smallBytes); buf.Len() < want; {
			buf.Write(freshIDs(tmpl[i%len(tmpl)], rng))
		}
		name := fmt.Sprintf("%s-%d-%06x.jsonl", phases[i%len(phases)], 1+i%3, rng.IntN(1<<24))
		writeFile(b, filepath.Join(root, fmt.Sprintf("wi-%04d", i/10), name), buf.Bytes())
	}
	_, size := corpusSize(root)
	return root, size
}

// templates reads the fixtures a corpus is made of, each ending in a
// newline and, when max is not 0, cut at a line to at most max bytes.
func templates(b *testing.B, max int) [][]byte {
	b.Helper()
	var tmpl [][]byte
	for _, f := range fixtureFiles(b) {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.HasSuffix(data, []byte("\n")) {
			data = append(data, '\n')
		}
		if max > 0 && len(data) > max {
			data = data[:bytes.LastIndexByte(data[:max], '\n')+1]
		}
		tmpl = append(tmpl, data)
	}
	return tmpl
}

// freshIDs is a copy of a template with one fresh id per id of it, so that
// a tool result still names its call and a subagent its parent.
func freshIDs(t []byte, rng *rand.Rand) []byte {
	fresh := map[string][]byte{}
	return idRe.ReplaceAllFunc(t, func(id []byte) []byte {
		if out, ok := fresh[string(id)]; ok {
			return out
		}
		out := bytes.Clone(id)
		for j := len(out) - 1; j >= len(out)-6; j-- {
			if out[j] != '-' && out[j] != '_' {
				out[j] = "0123456789abcdef"[rng.IntN(16)]
			}
		}
		fresh[string(id)] = out
		return out
	})
}

// BenchmarkImportSmallFiles imports the small-files corpus into a fresh
// store, open to close as BenchmarkImport, and reports files/s.
func BenchmarkImportSmallFiles(b *testing.B) {
	root, size := smallCorpus(b)
	benchImportFresh(b, root, size)
}

// BenchmarkImportPerFile measures what an import costs per file whatever
// its content: 5,400 files of one short line each (a stream's init line),
// so that finding, opening, stating, reading and writing a file's rows (a
// transaction's share, the summary, the index row, the cost row) is most
// of the time. It reports µs/file.
func BenchmarkImportPerFile(b *testing.B) {
	root := filepath.Join(os.TempDir(), "sift-store-bench-tiny-v1")
	if n, _ := corpusSize(root); n != smallFiles {
		os.RemoveAll(root)
		for i := range smallFiles {
			line := fmt.Sprintf(`{"type":"system","subtype":"init","session_id":"%08x-0000-4000-8000-000000000000","model":"claude-x"}`+"\n", i)
			writeFile(b, filepath.Join(root, fmt.Sprintf("wi-%04d", i/10), fmt.Sprintf("work-%d-%06x.jsonl", 1+i%3, i)), []byte(line))
		}
	}
	_, size := corpusSize(root)
	benchImportFresh(b, root, size)
}

// benchImportFresh imports root into a fresh store per round, open to
// close, and reports the files, files/s and µs of wall time per file.
func benchImportFresh(b *testing.B, root string, size int64) {
	benchImportInto(b, root, size, func(dir string) (string, func()) { return filepath.Join(dir, "sift.db"), func() {} })
}

// benchImportInto is benchImportFresh into the database fresh returns for
// a round (and a function that removes it), in that round's folder.
func benchImportInto(b *testing.B, root string, size int64, fresh func(dir string) (string, func())) {
	b.SetBytes(size)
	b.ReportAllocs()
	var files int
	var elapsed time.Duration
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		db, drop := fresh(dir)
		syscall.Sync()
		b.StartTimer()
		start := time.Now()
		s, err := Open(db)
		if err != nil {
			b.Fatal(err)
		}
		res, err := ingest.Import(context.Background(), s, []string{root}, tiered(ingest.Options{}), nil)
		if err != nil || len(res.Failed) > 0 || res.Sessions != res.Files {
			b.Fatalf("%+v %v", res, err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		elapsed += took
		files += res.Files
		b.StopTimer()
		b.Logf("%d files, %d sessions, %.1f MB in %s: %.1f MB/s (open to close)", res.Files, res.Sessions,
			float64(res.Bytes)/1e6, took.Round(time.Millisecond), float64(res.Bytes)/1e6/took.Seconds())
		os.RemoveAll(dir)
		drop()
		b.StartTimer()
	}
	b.ReportMetric(float64(files), "files")
	b.ReportMetric(float64(files)/elapsed.Seconds(), "files/s")
	b.ReportMetric(float64(elapsed.Microseconds())/float64(files), "µs/file")
}

// The history corpus: 1,100 Claude Code transcripts of about 290 KB in
// 20 projects, as `sift import --history` reads them (and as
// TestHistoryUsageMatchesCcusage times against ccusage): the real
// transcripts of testdata/history/claude, each repeated with fresh ids and
// dated a year earlier, so that, as most of a real history, none is
// recent enough to keep its review events whenever the benchmark runs.
const (
	historyFiles = 1100
	historyBytes = 290_000
)

// yearRe matches a transcript timestamp's year, which historyCorpus puts
// a year back.
var yearRe = regexp.MustCompile(`"timestamp":"2026-`)

// historyCorpus returns the history corpus root (Claude Code's projects
// folder), generating it when missing.
func historyCorpus(b *testing.B) (string, int64) {
	b.Helper()
	root := filepath.Join(os.TempDir(), "sift-store-bench-history-v2", "projects")
	if n, size := corpusSize(root); n == historyFiles {
		return root, size
	}
	os.RemoveAll(filepath.Dir(root))
	paths, err := filepath.Glob("../testdata/history/claude/*.jsonl")
	if err != nil || len(paths) == 0 {
		b.Fatal("no Claude Code transcripts in testdata/history/claude", err)
	}
	var tmpl [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.HasSuffix(data, []byte("\n")) {
			data = append(data, '\n')
		}
		tmpl = append(tmpl, yearRe.ReplaceAll(data, []byte(`"timestamp":"2025-`)))
	}
	rng := rand.New(rand.NewPCG(11, 0))
	for i := range historyFiles {
		var buf bytes.Buffer
		for buf.Len() < historyBytes {
			buf.Write(freshIDs(tmpl[i%len(tmpl)], rng))
		}
		name := fmt.Sprintf("%08x-0000-4000-8000-%012x.jsonl", rng.Uint32(), i)
		writeFile(b, filepath.Join(root, fmt.Sprintf("-home-user-project-%02d", i%20), name), buf.Bytes())
	}
	_, size := corpusSize(root)
	return root, size
}

// BenchmarkImportHistory imports the history corpus into a fresh store,
// open to close, as `sift import --history` does.
func BenchmarkImportHistory(b *testing.B) {
	root, size := historyCorpus(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		syscall.Sync()
		b.StartTimer()
		s, err := Open(filepath.Join(dir, "sift.db"))
		if err != nil {
			b.Fatal(err)
		}
		res, err := ingest.ImportHistory(context.Background(), s,
			[]ingest.HistoryRoot{{Agent: agents.ClaudeHistory, Dir: root}}, tiered(ingest.Options{}), nil)
		if err != nil || len(res.Failed) > 0 || res.Sessions != historyFiles {
			b.Fatalf("%+v %v", res, err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.RemoveAll(dir)
		b.StartTimer()
	}
}

// BenchmarkReimportUnchanged re-imports the corpus with nothing changed.
func BenchmarkReimportUnchanged(b *testing.B) {
	root, _ := benchCorpus(b)
	db := filepath.Join(os.TempDir(), "sift-store-bench-reimport-v2.db")
	s, err := Open(db)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if res, err := ingest.Import(ctx, s, []string{root}, tiered(ingest.Options{}), nil); err != nil || len(res.Failed) > 0 {
		b.Fatal(err, res.Failed)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := ingest.Import(ctx, s, []string{root}, tiered(ingest.Options{}), nil)
		if err != nil || res.Sessions != 0 || res.Skipped != res.Files {
			b.Fatalf("%+v %v", res, err)
		}
	}
}

// benchSessions is the size of the store BenchmarkListSessions sorts.
const benchSessions = 100_000

// BenchmarkListSessions pages the inbox of a 100,000-session store: the
// first 50 by each sort key, in both directions.
func BenchmarkListSessions(b *testing.B) {
	db := filepath.Join(os.TempDir(), "sift-store-bench-100k-v3.db")
	s, err := Open(db)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if n, _ := s.CountSessions(ctx, review.Query{}); n < benchSessions {
		writeFakes(b, s, benchFakes(benchSessions))
	}
	for _, k := range review.SortKeys() {
		for _, asc := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s-asc=%v", k, asc), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					rows, err := pageRows(s.ListSessions(ctx, review.Query{Sort: k, Asc: asc, Limit: 50}))
					if err != nil || len(rows) != 50 {
						b.Fatal(len(rows), err)
					}
				}
			})
		}
	}
	b.Run("cost-flagged-undecided", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := pageRows(s.ListSessions(ctx, review.Query{Sort: review.SortCost, Flagged: true, Undecided: true, Limit: 50})); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("count", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := s.CountSessions(ctx, review.Query{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
