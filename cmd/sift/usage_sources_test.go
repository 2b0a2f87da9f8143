package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/corpus"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/usage"
	"github.com/agentsift/sift/store"
)

// usageHome lays out the history fixtures as the three CLIs keep them
// (Claude Code's real transcripts, the built Codex rollout and Gemini
// chat) and points the environment at them; it returns the Claude
// configuration folder.
func usageHome(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	claude := filepath.Join(dir, "claude")
	files, _ := filepath.Glob("../../testdata/history/claude/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no Claude Code transcripts in testdata/history/claude")
	}
	for _, f := range files {
		copyTo(t, f, filepath.Join(claude, "projects", "-home-user-projects-demo", filepath.Base(f)))
	}
	built := "../../core/agents/testdata/history-built"
	codex := filepath.Join(dir, "codex")
	rollout := "rollout-2026-03-02T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl"
	copyTo(t, filepath.Join(built, "codex", rollout), filepath.Join(codex, "sessions", "2026", "03", "02", rollout))
	gemini := filepath.Join(dir, "gemini")
	chat := "session-2026-03-03T09-00-5f0c2a9e.jsonl"
	copyTo(t, filepath.Join(built, "gemini", chat), filepath.Join(gemini, "tmp", "demo", "chats", chat))
	if err := os.WriteFile(filepath.Join(gemini, "projects.json"), []byte(`{"projects":{"/home/user/projects/demo":"demo"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", claude)
	t.Setenv("CODEX_HOME", codex)
	t.Setenv("GEMINI_DIR", gemini)
	t.Setenv("HOME", filepath.Join(dir, "home"))
	return claude
}

func copyTo(t testing.TB, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// usageJSON runs `sift usage --json` with the arguments and decodes it.
func usageJSON(t *testing.T, db string, args ...string) usage.Report {
	t.Helper()
	code, out, errs := runSift(t, append([]string{"usage", "--json", "--timezone", "UTC", "--db", db}, args...)...)
	if code != 0 {
		t.Fatalf("usage %v: exit %d, %q", args, code, errs)
	}
	var rep usage.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("usage %v: %v\n%.500s", args, err, out)
	}
	return rep
}

// inboxTokens reads every session through the store as the inbox does
// (ListSessions) and returns its tokens column (input plus output) per
// session id (the file name when it has none), and their sum.
func inboxTokens(t *testing.T, db string) (map[string]int64, int64) {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	page, err := st.ListSessions(context.Background(), review.Query{})
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int64{}
	var sum int64
	for _, s := range page.Sessions {
		var n int64
		for _, p := range []*int64{s.InputTokens, s.OutputTokens} {
			if p != nil {
				n += *p
			}
		}
		key := s.SessionID
		if key == "" {
			key = s.FileName
		}
		per[key] += n
		sum += n
	}
	return per, sum
}

// TestUsageByDayEqualsInboxTokens is the Done-means test of issue 29's
// one usage: `sift usage --by day` over every stored run (the three
// agents' histories and the captured streams of testdata/streams) adds up
// to the sum of the inbox's per-session tokens, session by session, and
// the two sources add up to all.
func TestUsageByDayEqualsInboxTokens(t *testing.T) {
	usageHome(t)
	db := filepath.Join(t.TempDir(), "sift.db")
	if code, _, errs := runSift(t, "import", "--history", "--db", db); code != 0 {
		t.Fatalf("import --history: %q", errs)
	}
	// Every folder of recorded streams (a file named alone must be a
	// stream: FORMATS.md and SOURCES.md would be refused).
	streams, _ := filepath.Glob("../../testdata/streams/*")
	streams = slices.DeleteFunc(streams, func(p string) bool { fi, err := os.Stat(p); return err != nil || !fi.IsDir() })
	if code, _, errs := runSift(t, append([]string{"import", "--db", db}, streams...)...); code != 0 {
		t.Fatalf("import streams: %q", errs)
	}
	perSession, inbox := inboxTokens(t, db)
	byDay := usageJSON(t, db, "--by", "day")
	var days int64
	for _, r := range byDay.Rows {
		days += r.TotalTokens
	}
	if inbox == 0 || days != inbox || byDay.Totals.TotalTokens != inbox {
		t.Fatalf("usage by day: rows add to %d, totals %d; the inbox's sessions add to %d", days, byDay.Totals.TotalTokens, inbox)
	}
	bySession := usageJSON(t, db, "--by", "session")
	got := map[string]int64{}
	for _, r := range bySession.Rows {
		got[r.Key] = r.TotalTokens
	}
	for k, n := range perSession {
		if n != 0 && got[k] != n {
			t.Errorf("session %s: usage %d tokens, inbox %d", k, got[k], n)
		}
	}
	captures, histories := usageJSON(t, db, "--source", "captures"), usageJSON(t, db, "--source", "histories")
	if captures.Totals.TotalTokens == 0 || histories.Totals.TotalTokens == 0 ||
		captures.Totals.TotalTokens+histories.Totals.TotalTokens != inbox {
		t.Errorf("captures %d + histories %d tokens, want both and %d", captures.Totals.TotalTokens, histories.Totals.TotalTokens, inbox)
	}
	if captures.Totals.UnpricedCalls == 0 || captures.Totals.CostUSD == nil {
		t.Errorf("captures: %+v; want known costs and the codex runs' unknown ones apart", captures.Totals)
	}
	// The table prints an unknown cost as —, and marks a sum that leaves
	// some out.
	code, table, _ := runSift(t, "usage", "--by", "session", "--source", "captures", "--db", db)
	if code != 0 || !strings.Contains(table, " — ") || !strings.Contains(table, "*") ||
		!strings.Contains(table, "of unknown cost") {
		t.Errorf("usage table of the captures: exit %d\n%s", code, table)
	}
	// A window past a hundred years is all time; one that ended before
	// any run is nothing; a duration is taken (a stream without times
	// counts at its file's time, which may fall in it).
	if all := usageJSON(t, db, "--since", "40000d"); all.Totals.TotalTokens != inbox {
		t.Errorf("--since 40000d: %d tokens, want all %d", all.Totals.TotalTokens, inbox)
	}
	if none := usageJSON(t, db, "--until", "2000-01-01"); none.Totals.TotalTokens != 0 {
		t.Errorf("--until 2000-01-01: %d tokens", none.Totals.TotalTokens)
	}
	if day := usageJSON(t, db, "--since", "24h"); day.Totals.TotalTokens > inbox {
		t.Errorf("--since 24h: %d tokens, more than all %d", day.Totals.TotalTokens, inbox)
	}
}

// repeatDelta is what ccusage 18.0.11 counts of a Claude transcript and
// sift does not: a message whose lines repeat its usage without a request
// id is counted by ccusage on every line, at each line's time, and by sift
// once, with its last report at its first time. A delta is + every line
// and − the kept report.
type repeatDelta struct {
	at      time.Time
	tokens  dayTokens
	entries int
}

// requestlessRepeats reads Claude transcripts independently of the parser
// and returns the deltas of their repeated messages without a request id.
func requestlessRepeats(t *testing.T, files []string) []repeatDelta {
	t.Helper()
	type line struct {
		Timestamp string `json:"timestamp"`
		RequestID string `json:"requestId"`
		Message   *struct {
			ID    string `json:"id"`
			Usage *struct {
				Input  *int64 `json:"input_tokens"`
				Output *int64 `json:"output_tokens"`
				Create int64  `json:"cache_creation_input_tokens"`
				Read   int64  `json:"cache_read_input_tokens"`
			} `json:"usage"`
		} `json:"message"`
	}
	var out []repeatDelta
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		groups := map[string][]repeatDelta{}
		var order []string
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var l line
			if json.Unmarshal(sc.Bytes(), &l) != nil || l.Message == nil || l.Message.Usage == nil || l.Message.ID == "" ||
				l.RequestID != "" || l.Message.Usage.Input == nil || l.Message.Usage.Output == nil {
				continue
			}
			ts, err := time.Parse(time.RFC3339Nano, l.Timestamp)
			if err != nil {
				continue
			}
			u := l.Message.Usage
			if groups[l.Message.ID] == nil {
				order = append(order, l.Message.ID)
			}
			groups[l.Message.ID] = append(groups[l.Message.ID], repeatDelta{ts, dayTokens{*u.Input, *u.Output, u.Create, u.Read}, 1})
		}
		fh.Close()
		for _, id := range order {
			g := groups[id]
			if len(g) < 2 {
				continue
			}
			last := g[len(g)-1].tokens
			out = append(out, g...)
			out = append(out, repeatDelta{g[0].at, dayTokens{-last.Input, -last.Output, -last.CacheCreation, -last.CacheRead}, -1})
		}
	}
	return out
}

func (d *dayTokens) add(o dayTokens) {
	d.Input += o.Input
	d.Output += o.Output
	d.CacheCreation += o.CacheCreation
	d.CacheRead += o.CacheRead
}

func (d dayTokens) total() int64 { return d.Input + d.Output + d.CacheCreation + d.CacheRead }

// TestUsageRequestlessRepeatsDifferFromCcusage shows where sift's one
// counting rule and ccusage 18.0.11 part: Claude Code's scripted
// transcript (recorded against a fake API: its lines carry no request
// id) repeats each message's usage on each of its content lines. The
// inbox and `sift usage` count such a message once; ccusage counts every
// line. Both numbers are printed; the difference must be exactly the
// repeated lines.
func TestUsageRequestlessRepeatsDifferFromCcusage(t *testing.T) {
	cc := ccusagePath(t)
	dir := t.TempDir()
	claude := filepath.Join(dir, "claude")
	src := "../../testdata/history/claude/e2e-claude-code-2.1.332-scripted.jsonl"
	copyTo(t, src, filepath.Join(claude, "projects", "-tmp-ccwork", filepath.Base(src)))
	db := importClaude(t, claude)
	ccTotal, sift, inbox := claudeTotals(t, cc, claude, db)
	var delta dayTokens
	for _, d := range requestlessRepeats(t, []string{src}) {
		delta.add(d.tokens)
	}
	t.Logf("tokens of %s: sift usage %d, inbox %d; ccusage 18.0.11 daily %d (its repeated lines: %+d)",
		filepath.Base(src), sift, inbox, ccTotal, delta.total())
	if sift != inbox {
		t.Errorf("sift usage %d tokens, the inbox %d: one counting rule", sift, inbox)
	}
	if delta.total() <= 0 || ccTotal != sift+delta.total() {
		t.Errorf("ccusage %d tokens, sift %d: want sift + the repeated lines (%d)", ccTotal, sift, delta.total())
	}
}

// claudeTotals returns the total tokens of a Claude Code configuration
// folder by ccusage 18.0.11 daily, by `sift usage` of its imported
// database, and by the inbox (its sessions' input and output, added).
func claudeTotals(t *testing.T, cc, claude, db string) (ccusage, sift, inbox int64) {
	t.Helper()
	var ccRep struct {
		Totals struct {
			TotalTokens int64 `json:"totalTokens"`
		} `json:"totals"`
	}
	ccusageJSON(t, cc, claude, &ccRep, "daily")
	_, inbox = inboxTokens(t, db)
	return ccRep.Totals.TotalTokens, usageJSON(t, db).Totals.TotalTokens, inbox
}

// importClaude imports the Claude Code configuration folder's history
// alone into a new database, and returns the database.
func importClaude(t *testing.T, claude string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", claude)
	t.Setenv("CODEX_HOME", filepath.Join(dir, "none"))
	t.Setenv("GEMINI_DIR", filepath.Join(dir, "none"))
	db := filepath.Join(dir, "sift.db")
	if code, _, errs := runSift(t, "import", "--history", "--db", db); code != 0 {
		t.Fatalf("import --history: %q", errs)
	}
	return db
}

// ccusageJSON runs `ccusage REPORT --json --offline` (TZ=UTC) on a Claude
// Code configuration folder and decodes its output into v.
func ccusageJSON(t *testing.T, cc, claude string, v any, report string) {
	t.Helper()
	out := runTool(t, append(os.Environ(), "TZ=UTC", "CLAUDE_CONFIG_DIR="+claude), cc, report, "--json", "--offline")
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("ccusage %s output: %v\n%.500s", report, err, out)
	}
}

// ccusagePath returns the pinned ccusage, skipping the test without it.
func ccusagePath(t *testing.T) string {
	t.Helper()
	cc, err := filepath.Abs(ccusageBin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cc); err != nil {
		t.Skip("ccusage not installed; install with: npm ci --prefix testdata/ccusage")
	}
	return cc
}

// ccBlock is one block of `ccusage blocks --json`.
type ccBlock struct {
	ID            string `json:"id"`
	StartTime     string `json:"startTime"`
	EndTime       string `json:"endTime"`
	ActualEndTime string `json:"actualEndTime"`
	IsGap         bool   `json:"isGap"`
	Entries       int    `json:"entries"`
	TokenCounts   struct {
		InputTokens              int64 `json:"inputTokens"`
		OutputTokens             int64 `json:"outputTokens"`
		CacheCreationInputTokens int64 `json:"cacheCreationInputTokens"`
		CacheReadInputTokens     int64 `json:"cacheReadInputTokens"`
	} `json:"tokenCounts"`
}

// TestUsageBlocksMatchCcusage compares `sift usage --by block` with
// `ccusage blocks --json` (18.0.11) on the Claude Code transcripts of
// testdata/history/claude, as they are and spread over days as many
// sessions (corpus.Generate): the same blocks (start, end, last call),
// each with the same calls and tokens, once ccusage's counting of repeated
// lines without a request id is taken off
// (TestUsageRequestlessRepeatsDifferFromCcusage). ccusage's gap blocks
// hold nothing and are no rows in sift.
func TestUsageBlocksMatchCcusage(t *testing.T) {
	cc := ccusagePath(t)
	templates, _ := filepath.Glob("../../testdata/history/claude/*.jsonl")
	dir := t.TempDir()
	claude := filepath.Join(dir, "claude")
	for _, f := range templates {
		copyTo(t, f, filepath.Join(claude, "projects", "-home-user-projects-demo", filepath.Base(f)))
	}
	if _, err := corpus.Generate(corpus.Spec{Templates: templates, Root: claude, Projects: 3, Sessions: 6, Copies: 1, Days: 3, Seed: 29}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(claude, "projects", "*", "*.jsonl"))
	db := importClaude(t, claude)
	var ccRep struct {
		Blocks []ccBlock `json:"blocks"`
	}
	ccusageJSON(t, cc, claude, &ccRep, "blocks")
	rep := usageJSON(t, db, "--by", "block")
	type block struct {
		start, end, last string
		entries          int
		tokens           dayTokens
	}
	got := map[string]*block{}
	var starts []time.Time
	for _, r := range rep.Rows {
		if r.Start == nil || r.End == nil || r.LastAt == nil {
			t.Fatalf("block %s without its bounds", r.Key)
		}
		b := &block{iso(*r.Start), iso(*r.End), iso(*r.LastAt), int(r.Calls),
			dayTokens{r.InputTokens, r.OutputTokens, r.CacheCreationTokens, r.CacheReadTokens}}
		got[b.start] = b
		starts = append(starts, *r.Start)
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i].Before(starts[j]) })
	// ccusage's view of sift's blocks: the repeated lines added back, in
	// the block their time falls in.
	repeats := requestlessRepeats(t, files)
	for _, d := range repeats {
		i := sort.Search(len(starts), func(i int) bool { return starts[i].After(d.at) }) - 1
		if i < 0 {
			t.Fatalf("a repeated line at %v before every block", d.at)
		}
		b := got[iso(starts[i])]
		b.entries += d.entries
		b.tokens.add(d.tokens)
	}
	var n int
	for _, w := range ccRep.Blocks {
		if w.IsGap {
			continue
		}
		n++
		g, ok := got[iso(parseISO(t, w.StartTime))]
		want := block{iso(parseISO(t, w.StartTime)), iso(parseISO(t, w.EndTime)), iso(parseISO(t, w.ActualEndTime)), w.Entries,
			dayTokens{w.TokenCounts.InputTokens, w.TokenCounts.OutputTokens, w.TokenCounts.CacheCreationInputTokens, w.TokenCounts.CacheReadInputTokens}}
		if !ok || *g != want {
			t.Errorf("block %s: sift %+v, ccusage %+v", w.ID, g, want)
		}
	}
	if n != len(got) || n < 10 {
		t.Errorf("ccusage lists %d blocks, sift %d; want the same, at least 10", n, len(got))
	}
	t.Logf("%d files, %d blocks; %d lines ccusage counts apart", len(files), n, len(repeats))
}

// iso is a time as ccusage prints it, in UTC to the millisecond.
func iso(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func parseISO(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("ccusage time %q: %v", s, err)
	}
	return v
}
