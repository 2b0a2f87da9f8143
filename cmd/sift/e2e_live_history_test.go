package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// historyEnv is the environment of a sift whose agent CLIs keep their
// histories under home: HOME set, the CLIs' own overrides empty.
func historyEnv(home string) []string {
	return []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=", "CODEX_HOME=", "GEMINI_DIR=", "GEMINI_CLI_HOME="}
}

// TestEndToEndLiveHistory drives the real binary in tmux with HOME
// holding a Claude Code history that `sift import --history` imported: the
// inbox names the session by its project's folder, not its slug; a new
// session file Claude Code writes into the projects folder while the inbox
// is open shows within two seconds, both projects then told apart by
// their parent folders; and a turn added to that session shows as its
// last words within two seconds too. The times measured are logged.
func TestEndToEndLiveHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and drives the binary")
	}
	bin := e2eBuildSift(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	projects := filepath.Join(home, ".claude", "projects")
	src, err := os.ReadFile("../../testdata/history/claude/spotter-2.1.38-short-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	const oldID, newID = "55604662-cf2a-4331-851a-ec234028f8ca", "0d5e3c8a-1111-4222-8333-444455556666"
	writeHistoryFile(t, filepath.Join(projects, "-home-marco-projects-spotter", oldID+".jsonl"), src)
	db := filepath.Join(dir, "sift.db")
	runTool(t, append(os.Environ(), historyEnv(home)...), bin, "import", "--history", "--db", db)

	tm := e2eTmuxInboxEnv(t, bin, db, historyEnv(home))
	s := tm.waitFor("the imported history session", "spotter · interactive")
	if strings.Contains(s, "-home-marco-projects-spotter") {
		t.Fatalf("the session is labelled by its folder slug:\n%s", s)
	}

	// Claude Code starts a session in another folder whose last part is
	// the same.
	body := strings.ReplaceAll(strings.ReplaceAll(string(src), oldID, newID), "/home/marco/projects/spotter", "/tmp/ccwork2/spotter")
	file := filepath.Join(projects, "-tmp-ccwork2-spotter", newID+".jsonl")
	start := time.Now()
	writeHistoryFile(t, file, []byte(body))
	s = tm.waitWithin(10*time.Second, "a new Claude Code session", "ccwork2/spotter · interactive", "projects/spotter · interactive")
	took := time.Since(start)
	t.Logf("a new Claude Code session showed in the open inbox in %v", took.Round(time.Millisecond))
	if took > liveWithin {
		t.Errorf("a new session showed in %v, want within %v", took, liveWithin)
	}
	if strings.Contains(s, "-tmp-ccwork2-spotter") {
		t.Fatalf("the new session is labelled by its folder slug:\n%s", s)
	}

	// It grows by a turn: its last words are the new turn's.
	turn := `{"parentUuid":"40003bdd-2613-4975-83d5-36fb0b6bbc59","isSidechain":false,"userType":"external","cwd":"/tmp/ccwork2/spotter","sessionId":"` + newID + `","version":"2.1.38","type":"user","message":{"role":"user","content":"run the tests"},"uuid":"a1a1a1a1-0000-4000-8000-000000000001","timestamp":"2026-02-10T21:17:00.000Z"}
{"parentUuid":"a1a1a1a1-0000-4000-8000-000000000001","isSidechain":false,"userType":"external","cwd":"/tmp/ccwork2/spotter","sessionId":"` + newID + `","version":"2.1.38","message":{"model":"claude-opus-4-6","id":"msg_01GrownTurn000000000000","type":"message","role":"assistant","content":[{"type":"text","text":"Grown turn: all 12 tests pass."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":100,"output_tokens":9}},"requestId":"req_grown","type":"assistant","uuid":"a1a1a1a1-0000-4000-8000-000000000002","timestamp":"2026-02-10T21:17:04.000Z"}
`
	start = time.Now()
	writeHistoryFile(t, file, []byte(turn))
	tm.waitWithin(10*time.Second, "a grown session's new turn", "Grown turn: all 12 tests pass.")
	took = time.Since(start)
	t.Logf("a grown session's new turn showed in the open inbox in %v", took.Round(time.Millisecond))
	if took > liveWithin {
		t.Errorf("a new turn showed in %v, want within %v", took, liveWithin)
	}
}

// writeHistoryFile writes to a session file as an agent CLI does: it
// appends, creating the file and its project folder at first.
func writeHistoryFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
