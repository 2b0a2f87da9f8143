package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/usage"
)

var updateHistory = flag.Bool("update-history", false, "rewrite the history summary goldens in testdata/history")

const (
	historyFixtures = "../testdata/history"
	builtHistory    = "../core/agents/testdata/history-built"
	spotterSession  = "55604662-cf2a-4331-851a-ec234028f8ca"
	subagentSession = "ae4a77f8-aedd-4bc1-888f-c94edc91af04"
	// geminiSession is the Gemini chat's key: its recorded session id
	// (its file is session-2026-03-03T09-00-5f0c2a9e.jsonl).
	geminiSession = "session-5f0c2a9e-1b3d-4c5e-8f70-a1b2c3d4e5f6.jsonl"
)

// historyHome lays out the three CLIs' folders as they keep them, filled
// from the fixtures, and returns the roots to import. The subagent
// transcript gets a parent whose agent_progress line links it to a Task
// call.
func historyHome(t *testing.T) (string, []ingest.HistoryRoot) {
	t.Helper()
	dir := t.TempDir()
	claude := filepath.Join(dir, "claude", "projects")
	copyFile(t, filepath.Join(historyFixtures, "claude", "spotter-2.1.38-short-session.jsonl"),
		filepath.Join(claude, "-home-marco-projects-spotter", spotterSession+".jsonl"))
	sub := filepath.Join(claude, "-home-USER-projects-spotter-worktrees-spotter-4te")
	writeFile(t, filepath.Join(sub, subagentSession+".jsonl"), []byte(
		`{"parentUuid":null,"isSidechain":false,"cwd":"/home/USER/projects/spotter-worktrees/spotter-4te","sessionId":"`+subagentSession+
			`","version":"2.1.39","type":"progress","data":{"message":{"type":"user","message":{"role":"user","content":"Search hex.pm"}},"type":"agent_progress","prompt":"Search hex.pm","agentId":"aac57f5"},"toolUseID":"agent_msg_01","parentToolUseID":"toolu_01TaskParent","uuid":"0b5d2c3e-0000-4000-8000-000000000001","timestamp":"2026-02-12T14:12:32.600Z"}`+"\n"))
	copyFile(t, filepath.Join(historyFixtures, "claude", "spotter-subagent-agent-aac57f5.jsonl"),
		filepath.Join(sub, subagentSession, "subagents", "agent-aac57f5.jsonl"))
	codex := filepath.Join(dir, "codex", "sessions")
	copyFile(t, filepath.Join(builtHistory, "codex", "rollout-2026-03-02T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl"),
		filepath.Join(codex, "2026", "03", "02", "rollout-2026-03-02T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl"))
	gemini := filepath.Join(dir, "gemini")
	writeFile(t, filepath.Join(gemini, "projects.json"), []byte(`{"projects":{"/home/user/projects/demo":"demo"}}`))
	copyFile(t, filepath.Join(builtHistory, "gemini", "session-2026-03-03T09-00-5f0c2a9e.jsonl"),
		filepath.Join(gemini, "tmp", "demo", "chats", "session-2026-03-03T09-00-5f0c2a9e.jsonl"))
	return dir, []ingest.HistoryRoot{
		{Agent: agents.ClaudeHistory, Dir: claude},
		{Agent: agents.CodexHistory, Dir: codex},
		{Agent: agents.GeminiHistory, Dir: filepath.Join(gemini, "tmp")},
		{Agent: agents.ClaudeHistory, Dir: filepath.Join(dir, "not-installed")},
	}
}

func importHistory(t *testing.T, s *Store, roots []ingest.HistoryRoot) ingest.Result {
	t.Helper()
	res, err := ingest.ImportHistory(context.Background(), s, roots, tiered(ingest.Options{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed) > 0 {
		t.Fatalf("failed: %v", res.Failed)
	}
	return res
}

// TestImportHistoryLayout pins the history layout: the work item is the
// project (Claude Code's folder; the cwd of Codex, and the root Gemini
// CLI's projects.json names, spelled as Claude Code spells folders, so one
// project's sessions meet), the phase interactive, one session per file,
// and a subagent linked to the Task call that started it. The summaries are
// compared with goldens (-update-history rewrites them).
func TestImportHistoryLayout(t *testing.T) {
	s := newTestStore(t)
	_, roots := historyHome(t)
	res := importHistory(t, s, roots)
	if res.Files != 5 || res.Sessions != 5 {
		t.Fatalf("files %d, sessions %d; want 5 and 5", res.Files, res.Sessions)
	}
	want := []struct{ workItem, file, agent string }{
		{"-home-marco-projects-spotter", spotterSession + ".jsonl", "claude-history"},
		{"-home-USER-projects-spotter-worktrees-spotter-4te", subagentSession + ".jsonl", "claude-history"},
		{"-home-USER-projects-spotter-worktrees-spotter-4te", subagentSession + ".agent-aac57f5.jsonl", "claude-history"},
		{"-home-user-projects-demo", "rollout-2026-03-02T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl", "codex-history"},
		{"-home-user-projects-demo", geminiSession, "gemini-history"},
	}
	for _, w := range want {
		sum, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: w.workItem, FileName: w.file})
		if err != nil {
			t.Fatalf("%s/%s: %v", w.workItem, w.file, err)
		}
		if sum.Phase != ingest.PhaseInteractive || sum.AgentKind != w.agent || sum.Iteration != nil {
			t.Errorf("%s: phase %q, agent %q, iteration %v", w.file, sum.Phase, sum.AgentKind, sum.Iteration)
		}
		b, err := json.MarshalIndent(sum, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "history", w.agent+"-"+strings.TrimSuffix(w.file, ".jsonl")+".golden.json")
		if *updateHistory {
			writeFile(t, golden, append(b, '\n'))
			continue
		}
		if g, err := os.ReadFile(golden); err != nil || !bytes.Equal(g, append(b, '\n')) {
			t.Errorf("%s differs from %s (run with -update-history and review):\n%s", w.file, golden, b)
		}
	}
	var parent string
	if err := s.r.QueryRow(`SELECT COALESCE(parent_tool_call_id, '') FROM usage_files WHERE file_name = ?`,
		subagentSession+".agent-aac57f5.jsonl").Scan(&parent); err != nil || parent != "toolu_01TaskParent" {
		t.Fatalf("subagent's parent call %q (%v), want toolu_01TaskParent", parent, err)
	}
}

// oracleDaily totals Claude Code transcripts per UTC day the way ccusage's
// data loader does (files by earliest timestamp; a line counts when it has
// a timestamp and message.usage input and output numbers; message.id +
// requestId counted once), written independently of the parser.
func oracleDaily(t *testing.T, files []string) map[string][4]int64 {
	t.Helper()
	type entry struct {
		Timestamp string `json:"timestamp"`
		RequestID string `json:"requestId"`
		Message   *struct {
			ID    string `json:"id"`
			Usage *struct {
				Input  *float64 `json:"input_tokens"`
				Output *float64 `json:"output_tokens"`
				Create float64  `json:"cache_creation_input_tokens"`
				Read   float64  `json:"cache_read_input_tokens"`
			} `json:"usage"`
		} `json:"message"`
	}
	out := map[string][4]int64{}
	seen := map[string]bool{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var e entry
			if json.Unmarshal(sc.Bytes(), &e) != nil || e.Message == nil || e.Message.Usage == nil ||
				e.Message.Usage.Input == nil || e.Message.Usage.Output == nil {
				continue
			}
			ts, err := time.Parse(time.RFC3339Nano, e.Timestamp)
			if err != nil {
				continue
			}
			if e.Message.ID != "" && e.RequestID != "" {
				k := e.Message.ID + ":" + e.RequestID
				if seen[k] {
					continue
				}
				seen[k] = true
			}
			u := e.Message.Usage
			d := out[ts.UTC().Format("2006-01-02")]
			d[0] += int64(*u.Input)
			d[1] += int64(*u.Output)
			d[2] += int64(u.Create)
			d[3] += int64(u.Read)
			out[ts.UTC().Format("2006-01-02")] = d
		}
		fh.Close()
	}
	return out
}

func dailyOf(t *testing.T, s *Store, agent agents.Kind) map[string][4]int64 {
	t.Helper()
	rep, err := usageOf(context.Background(), s, usage.Options{By: usage.ByDay, Location: time.UTC, Agent: agent})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][4]int64{}
	for _, r := range rep.Rows {
		out[r.Key] = [4]int64{r.InputTokens, r.OutputTokens, r.CacheCreationTokens, r.CacheReadTokens}
	}
	return out
}

// TestUsageCountsLikeCcusage compares the daily Claude totals with an
// independent reading of the files, then adds a resumed session that
// repeats the first one's messages (the same message and request ids):
// the totals must not move.
func TestUsageCountsLikeCcusage(t *testing.T) {
	s := newTestStore(t)
	dir, roots := historyHome(t)
	importHistory(t, s, roots)
	files, _ := filepath.Glob(filepath.Join(dir, "claude", "projects", "*", "*.jsonl"))
	files = append(files, filepath.Join(dir, "claude", "projects", "-home-USER-projects-spotter-worktrees-spotter-4te",
		subagentSession, "subagents", "agent-aac57f5.jsonl"))
	want := oracleDaily(t, files)
	got := dailyOf(t, s, agents.ClaudeHistory)
	if len(want) == 0 || !equalDaily(got, want) {
		t.Fatalf("daily totals\n got %v\nwant %v", got, want)
	}

	// A resumed session: Claude Code copies the earlier messages, ids and
	// all, into the new file.
	src, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "claude", "projects", "-home-marco-projects-spotter", "resumed.jsonl"), src)
	res := importHistory(t, s, roots)
	if res.Sessions != 1 || res.Skipped != 5 {
		t.Fatalf("re-import: %d sessions, %d skipped; want 1 and 5", res.Sessions, res.Skipped)
	}
	if again := dailyOf(t, s, agents.ClaudeHistory); !equalDaily(again, want) {
		t.Fatalf("a resumed session counted again:\n got %v\nwant %v", again, want)
	}
}

func equalDaily(a, b map[string][4]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestUsageGroupings checks that every grouping totals the same, and the
// Codex and Gemini figures: uncached input is the prompt less its cached
// share, the repeated token_count and the rewound Gemini messages are not
// counted.
func TestUsageGroupings(t *testing.T) {
	s := newTestStore(t)
	_, roots := historyHome(t)
	importHistory(t, s, roots)
	ctx := context.Background()
	var totals []usage.Totals
	for _, by := range []usage.By{usage.ByDay, usage.BySession, usage.ByProject, usage.ByModel} {
		rep, err := usageOf(ctx, s, usage.Options{By: by, Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		var sum usage.Totals
		for _, r := range rep.Rows {
			sum.InputTokens += r.InputTokens
			sum.OutputTokens += r.OutputTokens
			sum.Calls += r.Calls
		}
		if sum.InputTokens != rep.Totals.InputTokens || sum.OutputTokens != rep.Totals.OutputTokens || sum.Calls != rep.Totals.Calls {
			t.Errorf("by %s: rows add to %+v, totals %+v", by, sum, rep.Totals)
		}
		totals = append(totals, rep.Totals)
	}
	for i := 1; i < len(totals); i++ {
		if totals[i] != totals[0] && (totals[i].Calls != totals[0].Calls || totals[i].TotalTokens != totals[0].TotalTokens) {
			t.Errorf("grouping %d totals %+v, by day %+v", i, totals[i], totals[0])
		}
	}
	rep, err := usageOf(ctx, s, usage.Options{By: usage.ByModel, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	byModel := map[string]usage.Row{}
	for _, r := range rep.Rows {
		byModel[r.Key] = r
	}
	codex := byModel["gpt-5-codex"]
	if codex.Calls != 4 || codex.InputTokens != (9120+9480+9650+9800)-(9088+9344+9600) ||
		codex.CacheReadTokens != 9088+9344+9600 || codex.OutputTokens != 180+96+40+52 {
		t.Errorf("codex: %+v", codex)
	}
	gemini := byModel["gemini-2.5-pro"]
	// m2 thought 120 tokens, counted as output.
	if gemini.Calls != 3 || gemini.InputTokens != (8123+8390+8450)-(8100+8300) || gemini.OutputTokens != 42+120+15+5 {
		t.Errorf("gemini: %+v", gemini)
	}
	rep, err = usageOf(ctx, s, usage.Options{By: usage.ByProject, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if r.Key == "-home-user-projects-demo" && r.Calls != 7 {
			t.Errorf("the demo project's Codex and Gemini calls: %d, want 7", r.Calls)
		}
	}
	since, err := usageOf(ctx, s, usage.Options{By: usage.ByDay, Location: time.UTC, Since: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if len(since.Rows) != 2 || since.Totals.Calls != 7 {
		t.Errorf("since 2026-03-01: %d days, %d calls; want 2 and 7", len(since.Rows), since.Totals.Calls)
	}
	if _, err := usageOf(ctx, s, usage.Options{By: "year"}); err == nil {
		t.Error("an unknown grouping gave no error")
	}
}

// TestUsageFollowsChangedFiles re-imports a grown chat: its usage is
// replaced, not added to.
func TestUsageFollowsChangedFiles(t *testing.T) {
	s := newTestStore(t)
	dir, roots := historyHome(t)
	importHistory(t, s, roots)
	chat := filepath.Join(dir, "gemini", "tmp", "demo", "chats", "session-2026-03-03T09-00-5f0c2a9e.jsonl")
	f, err := os.OpenFile(chat, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"id":"m9","timestamp":"2026-03-03T09:01:00.000Z","type":"gemini","content":"Bye.","tokens":{"input":8500,"output":2,"cached":8400,"thoughts":0,"tool":0,"total":8502},"model":"gemini-2.5-pro"}` + "\n")
	f.Close()
	res := importHistory(t, s, roots)
	if res.Sessions != 1 {
		t.Fatalf("re-import summarized %d sessions, want 1", res.Sessions)
	}
	rep, err := usageOf(context.Background(), s, usage.Options{By: usage.ByModel, Agent: agents.GeminiHistory})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 1 || rep.Rows[0].Calls != 4 || rep.Rows[0].OutputTokens != 42+120+15+5+2 {
		t.Fatalf("gemini after growing: %+v", rep.Rows)
	}
}

// TestUsageEntriesRoundTrip pins the blob encoding (a call's message key
// and sidechain mark included), and that a damaged blob is an error, not a
// wrong total. TestUsageEntriesBeyondInt64 reads the first form, without
// marks.
func TestUsageEntriesRoundTrip(t *testing.T) {
	entries := []ingest.UsageEntry{
		{At: 1767225600000, Key: 0, Model: 0, Input: 3, Output: 4, CacheWrite: 5, CacheRead: 6},
		{At: 1767225600001, Key: 9, Message: 1<<64 - 2, Sidechain: true, Model: 1, Output: 7},
		{At: -5, Key: 1<<64 - 1, Model: 1, Input: 1 << 40},
	}
	got, err := decodeEntries(encodeEntries(entries), 2, nil)
	if err != nil || len(got) != 3 || got[0] != entries[0] || got[1] != entries[1] || got[2] != entries[2] {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	b := encodeEntries(entries)
	if _, err := decodeEntries(b[:len(b)-1], 2, nil); err == nil {
		t.Error("a cut blob decoded")
	}
	if _, err := decodeEntries(b, 1, nil); err == nil {
		t.Error("a model index out of range decoded")
	}
}

// TestSniffedHistoryRecordsUsage imports a transcript with plain `sift
// import`: it is recognised by shape, and its usage is recorded too.
func TestSniffedHistoryRecordsUsage(t *testing.T) {
	s := newTestStore(t)
	dir := t.TempDir()
	p := copyFile(t, filepath.Join(historyFixtures, "claude", "spotter-2.1.38-short-session.jsonl"),
		filepath.Join(dir, "proj", "s.jsonl"))
	mustImport(t, s, p)
	got := dailyOf(t, s, "")
	want := oracleDaily(t, []string{p})
	if !equalDaily(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestPlainImportOfHistoryFolders imports the CLIs' folders with plain
// Import (as `sift import DIR` and a rebuild do): each file is recognised
// by its shape and gets the same session as under ImportHistory.
func TestPlainImportOfHistoryFolders(t *testing.T) {
	s := newTestStore(t)
	dir, _ := historyHome(t)
	res := mustImport(t, s, dir)
	if res.Sessions != 5 {
		t.Fatalf("%d sessions, want 5", res.Sessions)
	}
	for _, k := range []struct{ workItem, file string }{
		{"-home-marco-projects-spotter", spotterSession + ".jsonl"},
		{"-home-USER-projects-spotter-worktrees-spotter-4te", subagentSession + ".agent-aac57f5.jsonl"},
		{"-home-user-projects-demo", "rollout-2026-03-02T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl"},
		// Gemini's projects.json is read here too.
		{"-home-user-projects-demo", geminiSession},
	} {
		sum, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: k.workItem, FileName: k.file})
		if err != nil {
			t.Errorf("%s/%s: %v", k.workItem, k.file, err)
			continue
		}
		if sum.Phase != ingest.PhaseInteractive {
			t.Errorf("%s: phase %q", k.file, sum.Phase)
		}
	}
	rep, err := usageOf(context.Background(), s, usage.Options{By: usage.ByModel})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.Calls == 0 || len(rep.Rows) != 4 {
		t.Fatalf("usage after a plain import: %+v", rep.Rows)
	}
}

// TestImportGeminiLegacyDocument reads an older Gemini CLI session-*.json
// (one JSON document, pretty-printed) under --history.
func TestImportGeminiLegacyDocument(t *testing.T) {
	s := newTestStore(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "tmp", "0a1b2c", "chats", "session-2025-09-01T10-00-s1.json"), []byte(`{
  "sessionId": "s-legacy",
  "projectHash": "0a1b2c",
  "startTime": "2025-09-01T10:00:00.000Z",
  "lastUpdated": "2025-09-01T10:01:00.000Z",
  "messages": [
    {"id": "u1", "timestamp": "2025-09-01T10:00:01.000Z", "type": "user", "content": "hello"},
    {"id": "g1", "timestamp": "2025-09-01T10:00:03.000Z", "type": "gemini", "content": "Hi.",
     "tokens": {"input": 100, "output": 3, "cached": 40, "thoughts": 0, "tool": 0, "total": 103}, "model": "gemini-2.5-flash"}
  ]
}
`))
	importHistory(t, s, []ingest.HistoryRoot{{Agent: agents.GeminiHistory, Dir: filepath.Join(dir, "tmp")}})
	sum, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: "0a1b2c", FileName: "session-s-legacy.json"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.SessionID != "s-legacy" || sum.OutputTokens == nil || *sum.OutputTokens != 3 {
		t.Fatalf("summary: session %q, output %v", sum.SessionID, sum.OutputTokens)
	}
	rep, err := usageOf(context.Background(), s, usage.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 1 || rep.Rows[0].Key != "2025-09-01" || rep.Rows[0].InputTokens != 60 || rep.Rows[0].CacheReadTokens != 40 {
		t.Fatalf("usage: %+v", rep.Rows)
	}
}

// TestHistoryFixtureSummaries imports every real history file in
// testdata/history (recognised by shape) and compares its summary with a
// golden (-update-history rewrites them).
func TestHistoryFixtureSummaries(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(historyFixtures, "*", "*"))
	if len(files) < 3 {
		t.Fatalf("found %d history fixtures", len(files))
	}
	s := newTestStore(t)
	mustImport(t, s, files...)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			abs, err := filepath.Abs(f)
			if err != nil {
				t.Fatal(err)
			}
			var workItem, file string
			if err := s.r.QueryRow(`SELECT work_item_id, file_name FROM stream_files WHERE path = ?`, abs).Scan(&workItem, &file); err != nil {
				t.Fatalf("not imported: %v", err)
			}
			sum, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: workItem, FileName: file})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Phase != ingest.PhaseInteractive || !strings.HasSuffix(sum.AgentKind, "-history") {
				t.Errorf("phase %q, agent %q", sum.Phase, sum.AgentKind)
			}
			b, err := json.MarshalIndent(sum, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			b = append(b, '\n')
			agent := filepath.Base(filepath.Dir(f))
			golden := filepath.Join("testdata", "history", "fixture-"+agent+"-"+strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))+".golden.json")
			if *updateHistory {
				writeFile(t, golden, b)
				return
			}
			if g, err := os.ReadFile(golden); err != nil || !bytes.Equal(g, b) {
				t.Errorf("differs from %s (run with -update-history and review):\n%s", golden, b)
			}
		})
	}
}

// TestHistorySessionsKeyedBySessionID: two machines' Gemini CLI histories
// with the same relative paths, whose chats bear the same file name
// (the same minute, the same first digits of the id) but different
// session ids, import as two sessions into one store; the same session
// copied to two places imports once.
func TestHistorySessionsKeyedBySessionID(t *testing.T) {
	s := newTestStore(t)
	chat := func(machine, id string) ingest.HistoryRoot {
		tmp := filepath.Join(t.TempDir(), machine, ".gemini", "tmp")
		writeFile(t, filepath.Join(tmp, "..", "projects.json"), []byte(`{"projects":{"/work/demo":"demo"}}`))
		writeFile(t, filepath.Join(tmp, "demo", "chats", "session-2026-03-03T09-00-5f0c2a9e.jsonl"), []byte(
			`{"sessionId":"`+id+`","projectHash":"9a8b","startTime":"2026-03-03T09:00:00.000Z","lastUpdated":"2026-03-03T09:00:00.000Z","kind":"main"}`+"\n"+
				`{"id":"u1","timestamp":"2026-03-03T09:00:01.000Z","type":"user","content":[{"text":"hello from `+machine+`"}]}`+"\n"))
		return ingest.HistoryRoot{Agent: agents.GeminiHistory, Dir: tmp}
	}
	a := chat("a", "5f0c2a9e-0000-4000-8000-00000000000a")
	b := chat("b", "5f0c2a9e-0000-4000-8000-00000000000b")
	copyOfA := chat("a-backup", "5f0c2a9e-0000-4000-8000-00000000000a")
	for _, r := range []ingest.HistoryRoot{a, b, copyOfA} {
		importHistory(t, s, []ingest.HistoryRoot{r})
	}
	rows, err := s.r.Query(`SELECT work_item_id, file_name FROM agent_stream_summaries ORDER BY file_name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var wi, f string
		if err := rows.Scan(&wi, &f); err != nil {
			t.Fatal(err)
		}
		got = append(got, wi+"/"+f)
	}
	want := []string{
		"-work-demo/session-5f0c2a9e-0000-4000-8000-00000000000a.jsonl",
		"-work-demo/session-5f0c2a9e-0000-4000-8000-00000000000b.jsonl",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sessions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
