package httpapi

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
)

// loadFixtures are the streams the load test spreads over its work items.
var loadFixtures = []string{
	"claude/evolve-2.1.7-run1-write-file.jsonl",
	"claude/evolve-2.1.5-skill-bash-read-image.jsonl",
	"claude/vincent-2.1.226-permission-denied-tool-error.jsonl",
	"codex/takopi-banteg-commands-reasoning.jsonl",
	"codex/vincent-0.147.0-reasoning.jsonl",
	"claude/evolve-2.1.7-run2-resumed-multitool.jsonl",
}

// errorLog counts the server's error log lines, and those that say the
// database was locked.
type errorLog struct {
	errors, locked atomic.Int64
	first          atomic.Pointer[string]
}

func (l *errorLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *errorLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *errorLog) WithGroup(string) slog.Handler            { return l }
func (l *errorLog) Handle(_ context.Context, r slog.Record) error {
	if r.Level < slog.LevelError {
		return nil
	}
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool { b.WriteString(" " + a.String()); return true })
	s := b.String()
	l.errors.Add(1)
	l.first.CompareAndSwap(nil, &s)
	if strings.Contains(s, "locked") || strings.Contains(s, "SQLITE_BUSY") {
		l.locked.Add(1)
	}
	return nil
}

// TestLoad runs 200 concurrent clients for 10 s against a loopback server
// reading stream lists, raw streams, session lists and summaries (some
// analysed on demand) while an importer writes new stream files and
// imports them. No 5xx, no "database is locked". It reports p50 and p99
// latency and requests per second. It runs only with SIFT_LOADTEST=1.
func TestLoad(t *testing.T) {
	if os.Getenv("SIFT_LOADTEST") != "1" {
		t.Skip("set SIFT_LOADTEST=1 to run the load test")
	}
	clients, dur := 200, 10*time.Second
	logs := &errorLog{}
	e := newEnv(t, Options{Loopback: true, Logger: slog.New(logs)})
	const workItems = 40
	for w := range workItems {
		for i, fx := range loadFixtures {
			e.copyFixture(fx, fmt.Sprintf("wi-load-%02d", w), fmt.Sprintf("work-%d-%06x.jsonl", i+1, w*16+i))
		}
	}
	e.importAll()

	// The files clients ask for; the importer adds to it.
	var mu sync.Mutex
	files := []string{}
	for w := range workItems {
		for i := range loadFixtures {
			files = append(files, fmt.Sprintf("wi-load-%02d/work-%d-%06x.jsonl", w, i+1, w*16+i))
		}
	}
	pick := func(r *rand.Rand) string {
		mu.Lock()
		defer mu.Unlock()
		return files[r.IntN(len(files))]
	}

	ctx, cancel := context.WithTimeout(context.Background(), dur)
	defer cancel()
	var imported, newFiles atomic.Int64
	var importErr atomic.Pointer[error]
	importerDone := make(chan struct{})
	go func() {
		defer close(importerDone)
		for n := 0; ctx.Err() == nil; n++ {
			// Three new captures, of which only the first two are imported
			// here; the third is left for on-demand summaries.
			var paths []string
			for k := range 3 {
				rel := fmt.Sprintf("wi-new-%02d/rework-%d-%06x.jsonl", n%10, n+1, 0xa00000+n*3+k)
				wi, name, _ := strings.Cut(rel, "/")
				paths = append(paths, e.copyFixture(loadFixtures[(n+k)%len(loadFixtures)], wi, name))
				mu.Lock()
				files = append(files, rel)
				mu.Unlock()
				newFiles.Add(1)
			}
			res, err := ingest.Import(context.Background(), e.store, paths[:2], storeImportOptions(), nil)
			if err != nil {
				importErr.Store(&err)
				return
			}
			imported.Add(int64(res.Sessions))
			time.Sleep(20 * time.Millisecond)
		}
	}()

	tr := &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	type sample struct {
		kind string
		d    time.Duration
	}
	results := make([][]sample, clients)
	var fails, server5xx, transport atomic.Int64
	var firstFail atomic.Pointer[string]
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(c), 7))
			for ctx.Err() == nil {
				var kind, target string
				switch f := pick(r); r.IntN(4) {
				case 0:
					kind, target = "list", "/workitems/"+strings.Split(f, "/")[0]+"/agent-streams?includeLineCount=true"
				case 1:
					kind, target = "stream", "/workitems/"+strings.Replace(f, "/", "/agent-streams/", 1)
				case 2:
					kind, target = "summary", "/workitems/"+strings.Replace(f, "/", "/agent-streams/", 1)+"/summary"
				default:
					kind, target = "sessions", "/sessions?sort=cost&limit=50"
				}
				start := time.Now()
				resp, err := client.Get(e.srv.URL + target)
				if err != nil {
					if ctx.Err() == nil {
						transport.Add(1)
						msg := err.Error()
						firstFail.CompareAndSwap(nil, &msg)
					}
					continue
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				d := time.Since(start)
				if resp.StatusCode >= 500 {
					server5xx.Add(1)
				}
				if resp.StatusCode != 200 || err != nil || strings.Contains(string(body), "locked") {
					fails.Add(1)
					msg := fmt.Sprintf("%s: %d %v %.200s", target, resp.StatusCode, err, body)
					firstFail.CompareAndSwap(nil, &msg)
					continue
				}
				results[c] = append(results[c], sample{kind, d})
			}
		}()
	}
	wg.Wait()
	<-importerDone
	if p := importErr.Load(); p != nil {
		t.Fatalf("import: %v", *p)
	}

	byKind := map[string][]time.Duration{}
	var all []time.Duration
	for _, rs := range results {
		for _, s := range rs {
			byKind[s.kind] = append(byKind[s.kind], s.d)
			all = append(all, s.d)
		}
	}
	slices.Sort(all)
	t.Logf("%d clients for %v: %d requests OK, %.0f req/s, p50 %v, p99 %v, max %v",
		clients, dur, len(all), float64(len(all))/dur.Seconds(), pct(all, 50), pct(all, 99), all[len(all)-1])
	for _, k := range []string{"list", "stream", "summary", "sessions"} {
		ds := byKind[k]
		slices.Sort(ds)
		t.Logf("  %-8s %6d requests, p50 %v, p99 %v", k, len(ds), pct(ds, 50), pct(ds, 99))
	}
	stored, err := e.store.CountSessions(context.Background(), review.Query{})
	must(t, err)
	t.Logf("importer: %d new files written, %d imported by it; %d analysed on demand by summary requests and stored",
		newFiles.Load(), imported.Load(), int64(stored)-int64(workItems*len(loadFixtures))-imported.Load())
	if n := server5xx.Load(); n > 0 {
		t.Errorf("%d responses were 5xx", n)
	}
	if n := fails.Load() + transport.Load(); n > 0 {
		t.Errorf("%d requests failed (%d transport errors); first: %s", n, transport.Load(), *firstFail.Load())
	}
	if n := logs.locked.Load(); n > 0 {
		t.Errorf("%d \"database is locked\" errors", n)
	}
	if n := logs.errors.Load(); n > 0 {
		t.Errorf("%d server errors; first: %s", n, *logs.first.Load())
	}
}

// pct returns the p-th percentile of sorted durations, rounded.
func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	if i > 0 {
		i--
	}
	return sorted[i].Round(10 * time.Microsecond)
}
