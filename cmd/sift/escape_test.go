package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentsift/sift/core/textsafe"
)

// Hostile names: a folder and files named with escape sequences.
const (
	evilRoot   = "sift-\x1b]0;ROOT\x07\u202e"
	evilWI     = "ENG-\x1b]0;WI\x07\u009b31m"
	evilFile   = "evil-1-\x1b[31m\u2066.jsonl"
	evilLog    = "notes-\x1b]8;;x\x07link\x1b]8;;\x1b\\.log"
	evilBin    = "bin-\x1b]52;c;eA==\x07.log"
	evilLink   = "link-\x1b[2J.jsonl"
	evilNote   = "note \x1b]52;c;cHduZWQ=\x07 \u202eevil"
	evilUser   = "rev\x1b[31m\u009b"
	evilProj   = "-tmp-\x1b]0;PROJ\x07"
	evilSessID = "sess\x1b[1m"
)

// evilStream is a Claude Code stream with escape sequences in the model
// name, the session id, tool names and ids, inputs, errors and the final
// message: CSI, OSC 0, 8 and 52 ended by BEL and by ST, C1 CSI as UTF-8,
// DEL, bidirectional overrides and isolates, a line separator; then a
// line that is not JSON with raw ESC and a raw 8-bit CSI byte.
var evilStream = strings.Join([]string{
	`{"type":"system","subtype":"init","session_id":"esc-1\u001b[2J","cwd":"/w\u001b]0;CWD\u0007","model":"claude-sonnet-4-5\u001b]0;MODEL\u0007","tools":["Bash"]}`,
	`{"type":"assistant","message":{"model":"claude-sonnet-4-5\u001b]0;MODEL\u0007","id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"plan \u001b[1mbold\u001b[0m \u009b2J"},{"type":"tool_use","id":"toolu_esc\u001b[1m","name":"Bash\u001b[31m\u202e","input":{"command":"cat \u001b]0;title\u0007 evil.txt \u009b31m \u007f \u2067rtl\u2069"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}},"session_id":"esc-1"}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_esc\u001b[1m","content":"\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\ \u001b]52;c;cHduZWQ=\u0007 \u001b[2J\u001b[H","is_error":true}]},"session_id":"esc-1"}`,
	`{"type":"assistant","message":{"model":"claude-sonnet-4-5\u001b]0;MODEL\u0007","id":"msg_2","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_two","name":"Read\u0007","input":{"file_path":"/etc/\u001b]0;x\u001b\\passwd\u2028"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}},"session_id":"esc-1"}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_two","content":"denied \u009d0;c1 osc\u009c \u007f","is_error":true}]},"session_id":"esc-1"}`,
	`{"type":"result","subtype":"success","is_error":false,"result":"done \u001b]52;c;eA==\u0007 \u2066iso\u2069 \u2028 sep \u009b31m \u001b[0m","num_turns":1,"duration_ms":1000,"total_cost_usd":0.01,"session_id":"esc-1"}`,
	"not json \x1b[31m red \x9b31m raw c1 \x07 bell",
}, "\n") + "\n"

// evilText is a plain-text capture: the summary shows its tail.
const evilText = "line one \x1b]0;TITLE\x07\nline two \x1b[2J\x1b[H \u009b31m\nthree \x9b raw \x7f del \u202eevil\nfour \x1b]52;c;cHduZWQ=\x1b\\\n"

// checkInert fails when output carries anything a terminal would act on:
// ESC, BEL or any other control but newline and tab, DEL, a C1 control
// (as UTF-8 or as a raw byte), a line separator or a bidirectional
// control.
func checkInert(t *testing.T, what, out string) {
	t.Helper()
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRuneInString(out[i:])
		if (r == utf8.RuneError && n <= 1) || (textsafe.Unsafe(r) && r != '\n' && r != '\t') {
			lo, hi := max(0, i-40), min(len(out), i+40)
			t.Errorf("%s: live %U at byte %d: %q", what, r, i, out[lo:hi])
			return
		}
		i += n
	}
}

// TestNoEscapeSequencesReachTheTerminal imports hostile streams, folder
// and file names and an agent history into a real store, then runs every
// text command in-process, and the API, and checks that nothing in their
// stdout and stderr can act on a terminal.
func TestNoEscapeSequencesReachTheTerminal(t *testing.T) {
	base := filepath.Join(t.TempDir(), evilRoot)
	logs := filepath.Join(base, "logs")
	db := filepath.Join(base, "sift.db")
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(logs, evilWI, evilFile), evilStream)
	write(filepath.Join(logs, evilWI, evilLog), evilText)
	write(filepath.Join(logs, evilWI, evilBin), "\x00\x01binary")
	write(filepath.Join(logs, "ENG-9", "work-1-e5c0de.jsonl"), evilStream)
	write(filepath.Join(base, "outside", "secret.jsonl"), evilStream)
	if err := os.Symlink(filepath.Join(base, "outside", "secret.jsonl"), filepath.Join(logs, evilWI, evilLink)); err != nil {
		t.Fatal(err)
	}
	hist, err := os.ReadFile("../../testdata/history/claude/e2e-claude-code-2.1.332-scripted.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	h := strings.ReplaceAll(string(hist), `"model":"claude-opus-5-5"`, `"model":"claude-opus-5-5\u001b]0;M\u0007\u009b"`)
	h = strings.ReplaceAll(h, `"cwd":"/tmp/`, `"cwd":"/tmp/\u001b]0;CWD\u0007`)
	write(filepath.Join(base, "claude", "projects", evilProj, evilSessID+".jsonl"), h)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(base, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(base, "data"))
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(base, "claude"))
	t.Setenv("CODEX_HOME", filepath.Join(base, "codex"))
	t.Setenv("GEMINI_DIR", filepath.Join(base, "gemini"))
	t.Setenv(tokenEnv, "")

	stream := filepath.Join(logs, evilWI, evilFile)
	text := filepath.Join(logs, evilWI, evilLog)
	st := []string{"--db", db, "--logs", logs}
	cmds := [][]string{
		{"help"},
		{"parse", stream},
		{"parse", "--stats", stream},
		{"parse", filepath.Join(base, "missing-\x1b]0;x\x07.jsonl")},
		{"summary", stream, text},
		{"summary", "--json", stream, text},
		{"summary", filepath.Join(logs, evilWI, evilBin)},
		{"import", "--db", db, logs},
		{"import", "--db", db, "--history"},
		append([]string{"list"}, st...),
		append([]string{"list", "--json"}, st...),
		append([]string{"list", "--text", "\x1b]0;q\x07"}, st...),
		append([]string{"decide", "evil-1", "--decision", "needs_followup", "--note", evilNote, "--reviewer", evilUser}, st...),
		append([]string{"decide", "evil-1", "--turn", "t1", "--tool-call", "toolu_esc\x1b[1m", "--decision", "reviewed", "--reviewer", evilUser}, st...),
		append([]string{"decide", "\x1b]0;nope\x07", "--decision", "reviewed"}, st...),
		append([]string{"list", "--flagged"}, st...),
		append([]string{"list", "--json", "--flagged"}, st...),
		append([]string{"usage"}, st...),
		append([]string{"usage", "--by", "project"}, st...),
		append([]string{"usage", "--by", "model"}, st...),
		append([]string{"usage", "--by", "session"}, st...),
		append([]string{"usage", "--json", "--by", "model"}, st...),
		append([]string{"sweep", "--status"}, st...),
		append([]string{"sweep"}, st...),
		append([]string{"workitem", "retry", evilWI}, st...),
		append([]string{"rebuild"}, st...),
		append([]string{"doctor"}, st...),
		{"init-logs", logs},
		{"init-logs", filepath.Join(base, "missing-\x1b]0;x\x07")},
		append([]string{"purge", "evil-1"}, st...),
		append([]string{"redact", "--reapply"}, st...),
		append([]string{"list", "-h"}, st...),
		{"nosuch\x1b]0;x\x07"},
	}
	var all strings.Builder
	for _, args := range cmds {
		out, errOut, code := siftCmd(t, args...)
		what := textsafe.Inert(strings.Join(args, " "))
		all.WriteString(out + errOut)
		checkInert(t, what+" (stdout)", out)
		checkInert(t, what+" (stderr)", errOut)
		if args[0] == "list" && slices.Contains(args, "--json") && !slices.Contains(args, "--flagged") {
			// The JSON is valid and keeps the names as they are.
			var rows []struct{ WorkItemID, FileName, Model string }
			if err := json.Unmarshal([]byte(out), &rows); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			found := false
			for _, r := range rows {
				found = found || (r.WorkItemID == evilWI && r.FileName == evilFile && strings.Contains(r.Model, "\x1b]0;MODEL\x07"))
			}
			if !found {
				t.Errorf("%s: the hostile session is not listed as it is named: %+v", what, rows)
			}
		}
		if code != 0 && !strings.Contains(what, "missing") && !strings.Contains(what, "nope") && !strings.Contains(what, "nosuch") &&
			!strings.Contains(what, evilBin) && args[0] != "import" && args[0] != "rebuild" && args[0] != "workitem" &&
			args[0] != "doctor" && args[0] != "purge" { // doctor lists problems, purge asks for --yes: both exit 1
			t.Errorf("%s: exit %d; stderr %q", what, code, errOut)
		}
		if args[0] == "summary" && args[1] == stream && !strings.Contains(out, `\x1b]0;MODEL\x07`) {
			t.Errorf("%s: the model is not shown as text: %q", what, out)
		}
	}

	// The hostile text is there, shown as text: in tables, summaries,
	// failures and JSON alike.
	for _, want := range []string{
		`model         claude-sonnet-4-5\x1b]0;MODEL\x07 (from the stream)`,
		`agent         claude · session esc-1\x1b[2J`,
		`failed        t2 Read\x07 /etc/\x1b]0;x\x1b\passwd\u2028 → denied \u009d0;c1 osc\u009c \x7f`,
		`final         done \x1b]52;c;eA==\x07 \u2066iso\u2069 \u2028 sep \u009b31m \x1b[0m`,
		`tail          three \x9b raw \x7f del \u202eevil`,
		`ENG-\x1b]0;WI\x07\u009b31m/evil-1-\x1b[31m\u2066.jsonl  claude`,
		`/link-\x1b[2J.jsonl: symlink leads outside the folder`,
		`recorded needs_followup on ENG-\x1b]0;WI\x07\u009b31m/evil-1-\x1b[31m\u2066.jsonl by rev\x1b[31m\u009b`,
		`-tmp-\x1b]0;PROJ\x07   2300`, // a repeated message counted once, as the inbox counts it
		`"note": "note \u001b]52;c;cHduZWQ=\u0007 \u202eevil"`,
		`"sessionUpdate":"result","isError":false,"subtype":"success","durationMs":1000,"numTurns":1,"text":"done \u001b]52;c;eA==\u0007 \u2066iso\u2069 \u2028 sep \u009b31m \u001b[0m"`,
		`sift parse: open ` + textsafe.Inert(base) + `/missing-\x1b]0;x\x07.jsonl: no such file`,
	} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no command printed %s", want)
		}
	}

	// The API, through sift serve on loopback.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	exit := make(chan int, 1)
	go func() { exit <- serve(ctx, append([]string{"--addr", "127.0.0.1:0"}, st...), &stdout, &stderr) }()
	addrRE := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)
	waitFor(t, "the listening line", 10*time.Second, func() bool { return addrRE.MatchString(stdout.String()) })
	url := addrRE.FindStringSubmatch(stdout.String())[1]
	for _, target := range []string{"/sessions", "/sessions?full=true", "/sessions?text=evil", "/sessions/evil-1/decisions",
		"/workitems/ENG-9/agent-streams", "/workitems/ENG-9/agent-streams/work-1-e5c0de.jsonl/summary",
		"/workitems/ENG-9/agent-streams/nope-1-000000.jsonl/summary", "/workitems/%1b%5b31m/agent-streams", "/nope"} {
		resp, err := http.Get(url + target)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		checkInert(t, "GET "+target, string(b))
		if strings.HasSuffix(target, "/decisions") && !strings.Contains(string(b), `"note \u001b]52;c;cHduZWQ=\u0007 \u202eevil"`) {
			t.Errorf("GET %s: the note is not there, escaped: %s", target, b)
		}
		if !json.Valid(b) {
			t.Errorf("GET %s: not JSON: %q", target, b)
		}
	}
	cancel()
	if code := <-exit; code != 0 {
		t.Errorf("serve: exit %d", code)
	}
	checkInert(t, "serve (stdout)", stdout.String())
	checkInert(t, "serve (stderr)", stderr.String())
}

// TestServeLogLinesAreInert logs hostile values and errors the way sift
// serve logs a failed request: the log line is inert.
func TestServeLogLinesAreInert(t *testing.T) {
	var buf strings.Builder
	log := serveLogger(&buf)
	for _, v := range []string{evilWI, evilFile, evilNote, evilUser, evilStream, evilText, "raw \x9b byte"} {
		log.Error("Request failed", "op", "summary", "err", errors.New("open "+v+": denied"), "file", v)
		log.Info(v)
	}
	checkInert(t, "serve log", buf.String())
	if !strings.Contains(buf.String(), `\x1b]0;WI\a\u009b31m`) {
		t.Errorf("the hostile name is not in the log as text:\n%s", buf.String())
	}
}
