package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/retention"

	"github.com/agentsift/sift/cmd/sift/internal/corpus"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// searchCorpus is the search benchmarks' corpus: every recorded stream of
// testdata/streams and the demo's (each cut to 64 KiB at a line), copied
// into 100,000 sessions of 5,000 work items over 90 days, with fresh ids,
// moved timestamps and a third of the words of their free text (prompts,
// what the model said, commands, paths, outputs) replaced by words of a
// 20,000-word vocabulary drawn Zipf-like: a few words are in most
// sessions, most in a handful. The README names it.
func searchCorpus(now time.Time) corpus.StreamSpec {
	tmpl, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "streams", "*", "*.jsonl"))
	demo, _ := filepath.Glob(filepath.Join("demo", "streams", "*", "*.jsonl"))
	return corpus.StreamSpec{Templates: append(tmpl, demo...), MaxTemplateBytes: 64 << 10, Sessions: 100_000, PerWorkItem: 20,
		Days: 90, Now: now, Vocabulary: 20_000, Replace: 1.0 / 3, Seed: 17}
}

// searchBenchStore returns the store of the search corpus, imported as
// `sift import` does, built once in the temporary directory and reused;
// the stream files are removed once imported.
func searchBenchStore(b testing.TB) (*store.Store, corpus.StreamSpec) {
	b.Helper()
	dir := filepath.Join(os.TempDir(), "sift-search-bench-100k-v3")
	db := filepath.Join(dir, "sift.db")
	stamp := filepath.Join(dir, "generated")
	spec := searchCorpus(time.Now().Truncate(24 * time.Hour))
	if t, err := os.ReadFile(stamp); err == nil {
		if at, err := time.Parse(time.RFC3339, string(t)); err == nil {
			spec.Now = at
			if st, err := store.Open(db); err == nil {
				if n, _ := st.CountSessions(context.Background(), review.Query{}); n >= spec.Sessions {
					return st, spec
				}
				st.Close()
			}
		}
	}
	os.RemoveAll(dir)
	spec.Root = filepath.Join(dir, "logs")
	start := time.Now()
	res, err := corpus.GenerateStreams(spec)
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(db)
	if err != nil {
		b.Fatal(err)
	}
	imp, err := ingest.Import(context.Background(), st, []string{spec.Root}, ingest.Options{KeepEvents: retention.Policy{}.KeepsEvents}, nil)
	if err != nil || len(imp.Failed) > 0 || imp.Sessions != spec.Sessions {
		b.Fatalf("import: %v %v (%d sessions)", err, imp.Failed, imp.Sessions)
	}
	b.Logf("search corpus: %d files, %.0f MB, generated and imported in %s", res.Files, float64(res.Bytes)/1e6, time.Since(start).Round(time.Second))
	os.RemoveAll(spec.Root)
	if err := os.WriteFile(stamp, []byte(spec.Now.Format(time.RFC3339)), 0o644); err != nil {
		b.Fatal(err)
	}
	return st, spec
}

// benchQueries are two-term searches over the corpus, of every
// selectivity: its vocabulary's words by rank (0 is in most sessions,
// 10,000 in a few), the streams' own words and tool names, a phrase,
// a field filter, an exclusion, and the last word being typed.
func benchQueries(spec corpus.StreamSpec) []review.Query {
	w := spec.Words()
	q := func(s string, typing bool) review.Query {
		return review.Query{Search: s, Typing: typing, Sort: review.SortTriage, Limit: 111, Count: true}
	}
	return []review.Query{
		q(w[0]+" "+w[1], false),
		q(w[3]+" "+w[100], false),
		q(w[50]+" "+w[5000], false),
		q(w[1000]+" "+w[2000], false),
		q(w[10000]+" "+w[7], false),
		q("file "+w[20], false),
		q("bash "+w[300], false),
		q("error test", false),
		q("read write", false),
		q(`"npm test" `+w[2], false),
		q("agent:claude "+w[30], false),
		q("flag:stall "+w[4], false),
		q(w[0]+" -"+w[1], false),
		q("since:7d "+w[10], false),
		q(w[2]+" "+w[40][:2], true),
		q(w[5]+" "+w[600][:3], true),
		q("rework "+w[9][:1], true),
		q("bash r", true),
	}
}

// BenchmarkSearch runs two-term searches on the 100,000-session search
// corpus as the inbox asks them: the first page (111 rows, three
// screens), in the triage order, with the count. It reports the
// latency's median, p99 and maximum over every query of every round.
func BenchmarkSearch(b *testing.B) {
	st, spec := searchBenchStore(b)
	defer st.Close()
	ctx := context.Background()
	qs := benchQueries(spec)
	var took []time.Duration
	b.ResetTimer()
	for b.Loop() {
		for _, q := range qs {
			start := time.Now()
			if _, err := st.ListSessions(ctx, q); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(start))
		}
	}
	b.StopTimer()
	reportLatency(b, took)
}

// reportLatency reports the median, p99 and maximum of latencies in ms.
func reportLatency(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	at := func(p float64) float64 { return float64(percentile(took, p).Microseconds()) / 1000 }
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "max-ms")
}

// percentile returns the latency at p (0.5 the median) of sorted ones.
func percentile(sorted []time.Duration, p float64) time.Duration {
	return sorted[min(int(p*float64(len(sorted))), len(sorted)-1)]
}

// TestSearchBenchQueries lists the benchmark's queries with how many
// sessions each selects and its first page's time, when asked for
// (SIFT_SEARCH_BENCH=1): the selectivity the benchmark covers. With
// SIFT_SEARCH_BENCH=N (N > 1) each query runs N times, and its median,
// p99 and maximum are listed; SIFT_SEARCH_ONLY=TEXT runs only the
// queries that contain TEXT.
func TestSearchBenchQueries(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("SIFT_SEARCH_BENCH"))
	if rounds < 1 {
		t.Skip("SIFT_SEARCH_BENCH=1 lists the search benchmark's queries")
	}
	st, spec := searchBenchStore(t)
	defer st.Close()
	only := os.Getenv("SIFT_SEARCH_ONLY")
	for _, q := range benchQueries(spec) {
		if only != "" && !strings.Contains(q.Search, only) {
			continue
		}
		var took []time.Duration
		total := 0
		for range rounds {
			start := time.Now()
			p, err := st.ListSessions(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			took = append(took, time.Since(start))
			total = p.Total
		}
		slices.Sort(took)
		at := func(p float64) time.Duration { return percentile(took, p).Round(10 * time.Microsecond) }
		t.Logf("%-40q %6d sessions  p50 %9s  p99 %9s  max %9s", q.Search, total, at(0.5), at(0.99), at(1))
	}
}
