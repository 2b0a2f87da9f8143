package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/summary"
)

// runFixture is a stream a fake agent prints: a real Claude Code run.
const runFixture = "../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl"

// fakeAgent writes an executable shell script and returns its path.
func fakeAgent(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// runEnv is the folder of one `sift run` test: a config naming the fake
// agent, a logs folder and a database.
type runEnv struct {
	dir, logs, db, config string
}

func newRunEnv(t *testing.T, config string) runEnv {
	t.Helper()
	dir := t.TempDir()
	e := runEnv{dir: dir, logs: filepath.Join(dir, "logs"), db: filepath.Join(dir, "sift.db"), config: filepath.Join(dir, "sift.yaml")}
	if err := os.WriteFile(e.config, []byte("Path: "+e.logs+"\n"+config), 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e runEnv) run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	all := append([]string{"run", "--config", e.config, "--db", e.db}, args...)
	code = run(all, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestRunCommandCapturesRecordsAndSummarizes(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, "StallThresholdSeconds: 5\n")
	argsFile := filepath.Join(e.dir, "args")
	agent := fakeAgent(t, e.dir, "claude", `printf '%s\n' "$@" > `+argsFile+`
echo "key: AKIAIOSFODNN7EXAMPLE" >&2
cat `+runFixture+`
exit 3
`)
	code, stdout, stderr := e.run(t, "--agent", "claude", "--work-item", "wi-7", "--phase", "work", "--iteration", "4",
		"--bin", agent, "--", "-p", "hello")
	if code != 3 {
		t.Fatalf("exit %d, want the agent's 3; stderr:\n%s", code, stderr)
	}
	fixture, _ := os.ReadFile(runFixture)
	if stdout != string(fixture) {
		t.Error("the agent's stdout did not pass through unchanged")
	}
	args, _ := os.ReadFile(argsFile)
	if got := strings.ReplaceAll(strings.TrimSpace(string(args)), "\n", " "); got != "--print --output-format stream-json --verbose -p hello" {
		t.Errorf("agent argv %q", got)
	}
	files, _ := filepath.Glob(filepath.Join(e.logs, "wi-7", "*"))
	if len(files) != 1 || !regexp.MustCompile(`/wi-7/work-1-[0-9a-f]{12}\.jsonl$`).MatchString(files[0]) {
		t.Fatalf("files %q", files)
	}
	data, _ := os.ReadFile(files[0])
	if bytes.Contains(data, []byte("AKIAIOSFODNN7EXAMPLE")) || !bytes.Contains(data, []byte(`{"type":"sift.stderr","text":"key: [REDACTED:aws-access-key]"}`)) {
		t.Errorf("stderr envelope missing or not redacted")
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "sift run: claude exit 3 after ") || !strings.Contains(last, "1 tool call") ||
		!strings.HasSuffix(last, files[0]) || strings.Contains(stderr, "warning") {
		t.Errorf("summary line %q (stderr %q)", last, stderr)
	}

	// The store has the session, attributed and with the exit code.
	code, out, errOut := e.run(t, "--help")
	if code != 0 || !strings.Contains(out, "--work-item") || errOut != "" {
		t.Errorf("help: %d %q %q", code, out, errOut)
	}
	var list bytes.Buffer
	if c := run([]string{"list", "--json", "--db", e.db, "--config", e.config}, nil, &list, os.Stderr); c != 0 {
		t.Fatalf("list exit %d", c)
	}
	var sums []summary.Summary
	if err := json.Unmarshal(list.Bytes(), &sums); err != nil || len(sums) != 1 {
		t.Fatalf("list: %v %s", err, list.String())
	}
	s := sums[0]
	if s.WorkItemID != "wi-7" || s.FileName != filepath.Base(files[0]) || s.AgentKind != "claude" || s.Phase != "work" ||
		s.Iteration == nil || *s.Iteration != 1 || s.ToolCallCount != 1 {
		t.Errorf("stored summary %+v", s)
	}
}

func TestRunCommandConfigBinaryAndEnv(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, "")
	agent := fakeAgent(t, e.dir, "my-codex", `echo "{\"type\":\"thread.started\",\"thread_id\":\"$SIFT_TEST_URL\"}"
echo "{\"type\":\"args\",\"a\":\"$*\"}"`)
	os.WriteFile(e.config, []byte("Path: "+e.logs+"\nAgents:\n  codex:\n    Binary: "+agent+"\n    Env: {SIFT_TEST_URL: http://127.0.0.1:9}\n"), 0o644)
	code, stdout, stderr := e.run(t, "--agent", "codex", "--work-item", "wi-env", "--", "fix it")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `{"type":"thread.started","thread_id":"http://127.0.0.1:9"}` + "\n" + `{"type":"args","a":"exec --json fix it"}` + "\n"
	if stdout != want {
		t.Errorf("stdout %q", stdout)
	}
}

func TestRunCommandDisabled(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, "Enabled: false\n")
	agent := fakeAgent(t, e.dir, "claude", `echo "plain $*"; exit 0`)
	code, stdout, stderr := e.run(t, "--agent", "claude", "--bin", agent, "--", "-p", "x")
	if code != 0 || stdout != "plain -p x\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(e.logs); !os.IsNotExist(err) {
		t.Errorf("logs folder made while disabled: %v", err)
	}
	if !strings.Contains(stderr, "sift run: claude exit 0 after ") || !strings.HasSuffix(strings.TrimSpace(stderr), "not captured") {
		t.Errorf("stderr %q", stderr)
	}
}

func TestRunCommandErrors(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, "")
	blocker := filepath.Join(e.dir, "file")
	os.WriteFile(blocker, nil, 0o644)
	bad := filepath.Join(e.dir, "bad.yaml")
	os.WriteFile(bad, []byte("RetainedDays: -1\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no agent", []string{"--", "x"}, 2, "sift run: --agent is required (one of antigravity, claude, codex, copilot, cursor, droid, gemini, kimi, opencode, pi, qwen)"},
		{"unknown agent", []string{"--agent", "aider"}, 2, `sift run: unknown agent "aider" (known: antigravity, claude,`},
		{"missing binary", []string{"--agent", "claude", "--bin", filepath.Join(e.dir, "nope")}, 127, "sift run: cannot start the agent " + filepath.Join(e.dir, "nope") + ": no such file or directory"},
		{"bad work item", []string{"--agent", "claude", "--work-item", "../x"}, 2, `sift run: bad work item "../x": it must be one path element`},
		{"unwritable --logs", []string{"--agent", "claude", "--logs", filepath.Join(blocker, "logs")}, 2, "sift run: --logs " + filepath.Join(blocker, "logs") + " is not writable: not a directory"},
		{"bad flag", []string{"--agnet", "claude"}, 2, "sift run: flag provided but not defined: -agnet (the agent's own flags go after --)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := e.run(t, tc.args...)
			if code != tc.code || !strings.HasPrefix(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d stderr %q; want %d %q", code, stderr, tc.code, tc.want)
			}
		})
	}
	unwritable := filepath.Join(e.dir, "unwritable.yaml")
	os.WriteFile(unwritable, []byte("Path: "+filepath.Join(blocker, "logs")+"\n"), 0o644)
	var errb bytes.Buffer
	if code := run([]string{"run", "--config", unwritable, "--agent", "claude"}, nil, &bytes.Buffer{}, &errb); code != 2 ||
		errb.String() != "sift run: config "+unwritable+": Path "+filepath.Join(blocker, "logs")+" is not writable: not a directory\n" {
		t.Errorf("unwritable Path: %d %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"run", "--config", bad, "--agent", "claude"}, nil, &bytes.Buffer{}, &errb); code != 2 ||
		errb.String() != "sift run: config "+bad+": RetainedDays must not be negative (got -1; 0 keeps files forever)\n" {
		t.Errorf("bad config: %d %q", code, errb.String())
	}
}

func TestRunCommandWithoutStore(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, "")
	e.db = filepath.Join(e.dir, "no-such-dir", "\x00bad") // cannot be opened
	agent := fakeAgent(t, e.dir, "claude", "cat "+runFixture+"\n")
	code, _, stderr := e.run(t, "--agent", "claude", "--bin", agent, "--work-item", "wi-nostore")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "sift run: warning: store: ") ||
		!strings.HasSuffix(lines[0], "; the run is not recorded") {
		t.Fatalf("stderr %q", stderr)
	}
	// The summary comes straight from the file.
	if !strings.HasPrefix(lines[1], "sift run: claude exit 0 after ") || !strings.Contains(lines[1], "1 tool call · ") ||
		!strings.Contains(lines[1], "/wi-nostore/work-1-") {
		t.Errorf("summary line %q", lines[1])
	}
}

// TestRunCommandClosedStdout runs the sift binary with its stdout a pipe
// nobody reads (sift run … | head): sift must not die of SIGPIPE, and the
// agent's whole stream is captured.
func TestRunCommandClosedStdout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the sift binary")
	}
	t.Parallel()
	sift := e2eBuildSift(t)
	e := newRunEnv(t, "")
	agent := fakeAgent(t, e.dir, "codex", `i=0; while [ $i -lt 3000 ]; do echo "{\"n\":$i}"; i=$((i+1)); done`)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	cmd := exec.Command(sift, "run", "--config", e.config, "--db", e.db, "--agent", "codex", "--bin", agent, "--work-item", "wi-pipe")
	cmd.Stdout = w
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	w.Close()
	if err != nil {
		t.Fatalf("sift run: %v\n%s", err, errb.String())
	}
	files, _ := filepath.Glob(filepath.Join(e.logs, "wi-pipe", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("files %q", files)
	}
	data, _ := os.ReadFile(files[0])
	if n := bytes.Count(data, []byte("\n")); n != 3000 {
		t.Errorf("%d lines captured, want 3000", n)
	}
}
