package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/corpus"
)

// ccusageBin is the pinned ccusage (testdata/ccusage, `npm ci --prefix
// testdata/ccusage`).
const ccusageBin = "../../testdata/ccusage/node_modules/.bin/ccusage"

// dayTokens are the four token totals of one day that both tools print.
type dayTokens struct {
	Input, Output, CacheCreation, CacheRead int64
}

// TestHistoryUsageMatchesCcusage generates a corpus of Claude Code projects
// (≥ 300 MB, ≥ 1,000 session files) from the real transcripts, runs
// `ccusage daily --json --offline` and `sift import --history` + `sift usage
// --by day --json` on it, and compares the daily totals. It also times both
// (the benchmark of issue 8): sift's import cold, into a new database. The
// one place the two count apart, a message's repeated lines without a
// request id, is taken off.
func TestHistoryUsageMatchesCcusage(t *testing.T) {
	cc := ccusagePath(t)
	if testing.Short() {
		t.Skip("generates a 300 MB corpus")
	}
	templates, _ := filepath.Glob("../../testdata/history/claude/*.jsonl")
	if len(templates) == 0 {
		t.Fatal("no Claude Code transcripts in testdata/history/claude")
	}
	// 1,100 session files of about 290 KB: as many copies of the
	// templates per file as that takes.
	var tmplBytes int64
	for _, p := range templates {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		tmplBytes += st.Size()
	}
	copies := int(max(1, (290_000*int64(len(templates))+tmplBytes-1)/tmplBytes))
	dir := t.TempDir()
	root := filepath.Join(dir, "claude")
	start := time.Now()
	res, err := corpus.Generate(corpus.Spec{Templates: templates, Root: root,
		Projects: 20, Sessions: 55, Copies: copies, Days: 30, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files < 1000 || res.Bytes < 300e6 {
		t.Fatalf("corpus of %d files, %d bytes: want ≥ 1,000 and ≥ 300 MB", res.Files, res.Bytes)
	}
	// Flush the corpus to disk before timing anything: otherwise the
	// first fsync of either tool (sift's database) waits for 300 MB of
	// dirty pages.
	syscall.Sync()
	t.Logf("corpus: %d files, %.1f MB in %s (synced)", res.Files, float64(res.Bytes)/1e6, time.Since(start).Round(time.Millisecond))
	sift := e2eBuildSift(t)
	env := append(os.Environ(), "TZ=UTC", "CLAUDE_CONFIG_DIR="+root,
		"CODEX_HOME="+filepath.Join(dir, "no-codex"), "GEMINI_DIR="+filepath.Join(dir, "no-gemini"),
		"HOME="+filepath.Join(dir, "home"))

	// The benchmark: each tool timed on the same corpus, alternately; sift
	// cold each time, into a new database. SIFT_HISTORY_BENCH=strict
	// times three rounds and compares the medians, which a passing load
	// on the shared machine moves less.
	rounds := 1
	if os.Getenv("SIFT_HISTORY_BENCH") == "strict" {
		rounds = 3
	}
	var ccTimes, siftTimes []time.Duration
	var ccOut []byte
	var db string
	for i := range rounds {
		ccStart := time.Now()
		ccOut = runTool(t, env, cc, "daily", "--json", "--offline")
		ccTimes = append(ccTimes, time.Since(ccStart))
		db = filepath.Join(dir, fmt.Sprintf("sift-%d.db", i))
		siftStart := time.Now()
		runTool(t, env, sift, "import", "--history", "--db", db)
		siftTimes = append(siftTimes, time.Since(siftStart))
	}
	ccTime, siftTime := median(ccTimes), median(siftTimes)
	siftOut := runTool(t, env, sift, "usage", "--by", "day", "--json", "--db", db)

	var ccRep struct {
		Daily []struct {
			Date                string `json:"date"`
			InputTokens         int64  `json:"inputTokens"`
			OutputTokens        int64  `json:"outputTokens"`
			CacheCreationTokens int64  `json:"cacheCreationTokens"`
			CacheReadTokens     int64  `json:"cacheReadTokens"`
		} `json:"daily"`
	}
	if err := json.Unmarshal(ccOut, &ccRep); err != nil {
		t.Fatalf("ccusage output: %v\n%.500s", err, ccOut)
	}
	var siftRep struct {
		Rows []struct {
			Key                 string `json:"key"`
			InputTokens         int64  `json:"inputTokens"`
			OutputTokens        int64  `json:"outputTokens"`
			CacheCreationTokens int64  `json:"cacheCreationTokens"`
			CacheReadTokens     int64  `json:"cacheReadTokens"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(siftOut, &siftRep); err != nil {
		t.Fatalf("sift usage output: %v\n%.500s", err, siftOut)
	}
	want := map[string]dayTokens{}
	for _, d := range ccRep.Daily {
		want[d.Date] = dayTokens{d.InputTokens, d.OutputTokens, d.CacheCreationTokens, d.CacheReadTokens}
	}
	got := map[string]dayTokens{}
	for _, d := range siftRep.Rows {
		got[d.Key] = dayTokens{d.InputTokens, d.OutputTokens, d.CacheCreationTokens, d.CacheReadTokens}
	}
	// ccusage counts again the lines that repeat a message's usage without
	// a request id (the scripted transcript's), which sift counts once,
	// as the inbox does (TestUsageRequestlessRepeatsDifferFromCcusage):
	// they are added back to sift's days before comparing.
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	var repeated int64
	for _, r := range requestlessRepeats(t, files) {
		day := r.at.UTC().Format("2006-01-02")
		g := got[day]
		g.add(r.tokens)
		got[day] = g
		repeated += r.tokens.total()
	}
	t.Logf("ccusage counts %d tokens more than sift: repeated lines without a request id", repeated)
	if len(want) < 20 {
		t.Fatalf("ccusage reports %d days; the corpus spans 30", len(want))
	}
	for day, w := range want {
		if g, ok := got[day]; !ok || g != w {
			t.Errorf("%s: sift %+v, ccusage %+v", day, g, w)
		}
	}
	for day, g := range got {
		if _, ok := want[day]; !ok {
			t.Errorf("%s: sift %+v, ccusage has no such day", day, g)
		}
	}

	ratio := ccTime.Seconds() / siftTime.Seconds()
	mbps := float64(res.Bytes) / 1e6 / siftTime.Seconds()
	t.Logf("ccusage daily --offline: %s (%.0f MB/s); sift import --history (cold, new database): %s (%.0f MB/s); ratio %.1f× (median of %d: ccusage %v, sift %v)",
		ccTime.Round(time.Millisecond), float64(res.Bytes)/1e6/ccTime.Seconds(), siftTime.Round(time.Millisecond), mbps, ratio,
		rounds, ccTimes, siftTimes)
	// The target ("Every agent's history") is to stay ≥ 10× ccusage
	// 18.0.11; on a shared, loaded machine the ratio varies, so the hard
	// floor here only catches a regression to ccusage's speed.
	// SIFT_HISTORY_BENCH=strict, on a quiet machine, asks for the target.
	floor := 2.0
	if os.Getenv("SIFT_HISTORY_BENCH") == "strict" {
		floor = 10
	}
	if ratio < floor {
		t.Errorf("sift import --history is %.1f× faster than ccusage, want ≥ %.0f×", ratio, floor)
	}
}

// median returns the middle of the durations.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// runTool runs a command with env and returns its stdout; a failure ends
// the test with its stderr.
func runTool(t *testing.T, env []string, bin string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}
