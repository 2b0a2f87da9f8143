package capture

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/core/event"
)

const ghToken = "ghp_aB3dE5fG7haB3dE5fG7haB3dE5fG7haB3dE5"

func TestRunStructured(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	argsFile := filepath.Join(dir, "args")
	bin := fakeBin(t, dir, "claude", `printf '%s\n' "$@" > `+argsFile+`
echo '{"type":"system","subtype":"init","session_id":"1f0c9f5e-8d3b-4a0e-9c8e-2b6a1d2f3e4c"}'
echo 'Reading prompt... token=`+ghToken+`' >&2
echo '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_01A","content":"GITHUB_TOKEN=`+ghToken+`"}]}}'
printf 'partial stderr "quoted" \\ no newline' >&2
printf '{"type":"result","result":"done"}'
exit 3
`)
	s, out, errb := spec(t, mustCLI(t, "claude"), bin, "--allowedTools", "Bash", "--", "do it")
	var started string
	s.OnStart = func(file string, start time.Time) { started = file }
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if started != res.File || res.File == "" {
		t.Errorf("OnStart got %q, file %q", started, res.File)
	}
	if res.ExitCode != 3 || res.Mode != Structured {
		t.Errorf("exit %d mode %v", res.ExitCode, res.Mode)
	}
	args, _ := os.ReadFile(argsFile)
	if got := strings.Split(strings.TrimSpace(string(args)), "\n"); strings.Join(got, "|") != "--print|--output-format|stream-json|--verbose|--allowedTools|Bash|--|do it" {
		t.Errorf("argv %q", got)
	}
	if m := fileName.FindStringSubmatch(filepath.Base(res.File)); m == nil || m[1] != "work" || m[2] != "1" ||
		filepath.Dir(res.File) != filepath.Join(s.Root, "wi-1") {
		t.Errorf("file %s", res.File)
	}
	lines := readLines(t, res.File)
	if len(lines) != 5 {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
	envelopes := 0
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Errorf("not JSON: %s", l)
		}
		if strings.Contains(l, ghToken) {
			t.Errorf("secret in file: %s", l)
		}
		if m["type"] == event.StderrEnvelope {
			envelopes++
		}
	}
	if envelopes != 2 {
		t.Errorf("%d envelopes, want 2", envelopes)
	}
	file := strings.Join(lines, "\n")
	for _, want := range []string{
		`{"type":"sift.stderr","text":"Reading prompt... token=[REDACTED:github-token]"}`,
		`{"type":"sift.stderr","text":"partial stderr \"quoted\" \\ no newline"}`,
		`"content":"GITHUB_TOKEN=[REDACTED:github-token]"`,
		`{"type":"result","result":"done"}`,
	} {
		if !strings.Contains(file, want) {
			t.Errorf("file lacks %s:\n%s", want, file)
		}
	}
	// The agent's own output reaches sift's streams unchanged.
	if !strings.Contains(out.String(), "GITHUB_TOKEN="+ghToken) || !strings.HasSuffix(out.String(), `{"type":"result","result":"done"}`) {
		t.Errorf("stdout pass-through: %q", out.String())
	}
	if !strings.Contains(errb.String(), "token="+ghToken+"\npartial stderr") {
		t.Errorf("stderr pass-through: %q", errb.String())
	}
}

func TestRunPlaintextTeesStderrVerbatim(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := fakeBin(t, dir, "copilot", `echo "I will fix the bug."
echo "Total usage est: 0.33 Premium requests" >&2
echo "-----BEGIN OPENSSH PRIVATE KEY-----"
echo "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
echo "-----END OPENSSH PRIVATE KEY----- done"
echo "Done."
`)
	s, _, _ := spec(t, mustCLI(t, "copilot"), bin, "-p", "fix")
	s.Phase, s.Iteration = "rework", 2
	res, err := Run(context.Background(), s)
	if err != nil || res.ExitCode != 0 || res.Mode != Plaintext {
		t.Fatalf("%+v %v", res, err)
	}
	if m := fileName.FindStringSubmatch(filepath.Base(res.File)); m == nil || m[1] != "rework" || m[2] != "2" {
		t.Errorf("file %s", res.File)
	}
	// stdout and stderr are two pipes: only the order within each is known.
	var stdout []string
	stderr := 0
	for _, l := range readLines(t, res.File) {
		if l == "Total usage est: 0.33 Premium requests" {
			stderr++
			continue
		}
		stdout = append(stdout, l)
	}
	got := strings.Join(stdout, "\n")
	want := "I will fix the bug.\n[REDACTED:private-key]\n[REDACTED:private-key]\n[REDACTED:private-key] done\nDone."
	if stderr != 1 {
		t.Errorf("the stderr line is in the file %d times", stderr)
	}
	if got != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
}

func TestRunDisabledPassesThrough(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := fakeBin(t, dir, "codex", `echo "args: $*"; echo "warn" >&2; exit 5`)
	s, out, errb := spec(t, mustCLI(t, "codex"), bin, "fix it")
	s.Enabled = false
	res, err := Run(context.Background(), s)
	if err != nil || res.ExitCode != 5 || res.File != "" {
		t.Fatalf("%+v %v", res, err)
	}
	if out.String() != "args: exec fix it\n" || errb.String() != "warn\n" {
		t.Errorf("out %q err %q", out.String(), errb.String())
	}
	if _, err := os.Stat(s.Root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("capture root created while disabled: %v", err)
	}
}

func TestRunMissingBinary(t *testing.T) {
	t.Parallel()
	s, _, _ := spec(t, mustCLI(t, "claude"), filepath.Join(t.TempDir(), "nope"))
	_, err := Run(context.Background(), s)
	if !errors.Is(err, ErrStart) || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(s.Root); err == nil {
		entries, _ := os.ReadDir(filepath.Join(s.Root, "wi-1"))
		if len(entries) > 0 {
			t.Errorf("a file was left for a run that never started: %v", entries)
		}
	}
}

func TestRunSizeCap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// 100 lines of 100 bytes (99 + newline) against a 1000-byte cap.
	bin := fakeBin(t, dir, "codex", `i=0; while [ $i -lt 100 ]; do printf '{"type":"item","n":"%077d"}\n' $i; i=$((i+1)); done`)
	s, out, _ := spec(t, mustCLI(t, "codex"), bin)
	s.MaxFileBytes = 1000
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, res.File)
	if len(lines) != 11 || lines[10] != "[...truncated by 9000 bytes]" {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
	if res.Written != 1000 || res.Dropped != 9000 {
		t.Errorf("written %d dropped %d", res.Written, res.Dropped)
	}
	if n := strings.Count(out.String(), "\n"); n != 100 {
		t.Errorf("pass-through has %d lines, want all 100", n)
	}
}

func TestRunStartFailureOnFileStillRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	blocker := filepath.Join(dir, "blocker")
	os.WriteFile(blocker, nil, 0o644)
	bin := fakeBin(t, dir, "claude", `echo '{"type":"result"}'; exit 7`)
	s, out, errb := spec(t, mustCLI(t, "claude"), bin)
	s.Root = filepath.Join(blocker, "logs") // cannot be a directory
	res, err := Run(context.Background(), s)
	if err != nil || res.ExitCode != 7 || res.File != "" || res.FileErr == nil {
		t.Fatalf("%+v %v", res, err)
	}
	if out.String() != "{\"type\":\"result\"}\n" {
		t.Errorf("stdout %q", out.String())
	}
	if w := errb.String(); strings.Count(w, "\n") != 1 || !strings.HasPrefix(w, "sift run: warning: capture: ") {
		t.Errorf("want one warning line, got %q", w)
	}
}

// failAfter is a file that fails once n bytes were written.
type failAfter struct {
	n      int
	closed bool
}

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n < len(p) {
		return 0, syscall.ENOSPC
	}
	f.n -= len(p)
	return len(p), nil
}

func (f *failAfter) Close() error { f.closed = true; return nil }

func TestRunDiskErrorIsOneWarning(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// Enough output to pass the sink's 64 KiB buffer several times.
	bin := fakeBin(t, dir, "codex", `i=0; while [ $i -lt 3000 ]; do printf '{"type":"item","n":"%0100d"}\n' $i; i=$((i+1)); done; echo oops >&2; exit 4`)
	s, out, errb := spec(t, mustCLI(t, "codex"), bin)
	disk := &failAfter{n: 100 << 10}
	s.create = func() (io.WriteCloser, string, error) { return disk, "/fake/work-1-abcdef.jsonl", nil }
	res, err := Run(context.Background(), s)
	if err != nil || res.ExitCode != 4 {
		t.Fatalf("%+v %v", res, err)
	}
	if !errors.Is(res.FileErr, syscall.ENOSPC) || !disk.closed {
		t.Errorf("FileErr %v closed %v", res.FileErr, disk.closed)
	}
	w := errb.String()
	if strings.Count(w, "sift run: warning:") != 1 ||
		!strings.Contains(w, "sift run: warning: capture /fake/work-1-abcdef.jsonl: no space left on device; the agent keeps running, the file is incomplete\n") {
		t.Errorf("stderr %q", w)
	}
	// The warning comes from the redactor, the agent's stderr from its
	// reader: either may come first.
	if !(strings.HasPrefix(w, "oops\n") || strings.Contains(w, "\noops\n")) || strings.Count(out.String(), "\n") != 3000 {
		t.Error("the agent's output did not all pass through")
	}
}

func TestRunForwardsSignalsToTheGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	child := filepath.Join(dir, "child-marker")
	// The agent and a tool it spawned both trap TERM.
	bin := fakeBin(t, dir, "claude", `
( trap 'echo child-term > `+child+`; exit 0' TERM; touch `+child+`.ready; while :; do sleep 0.05; done ) &
trap 'echo term > `+marker+`; echo "{\"type\":\"bye\"}"; wait; exit 143' TERM
while [ ! -f `+child+`.ready ]; do sleep 0.01; done
echo '{"type":"ready"}'
while :; do sleep 0.05; done
`)
	s, out, _ := spec(t, mustCLI(t, "claude"), bin)
	sigs := make(chan os.Signal, 1)
	s.Signals = sigs
	done := make(chan Result, 1)
	go func() {
		res, err := Run(context.Background(), s)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "ready") {
		if time.Now().After(deadline) {
			t.Fatal("the agent never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	sigs <- syscall.SIGTERM
	var res Result
	select {
	case res = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the agent did not stop on SIGTERM")
	}
	if res.ExitCode != 143 {
		t.Errorf("exit %d, want 143", res.ExitCode)
	}
	for _, f := range []string{marker, child} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s: the signal did not reach it: %v", filepath.Base(f), err)
		}
	}
	// The file was closed with everything the agent printed, the line
	// written by its TERM trap included (the shell may add "Terminated"
	// envelopes for its killed sleeps).
	var stdout []string
	for _, l := range readLines(t, res.File) {
		if !strings.Contains(l, event.StderrEnvelope) {
			stdout = append(stdout, l)
		}
	}
	if got := strings.Join(stdout, "|"); got != `{"type":"ready"}|{"type":"bye"}` {
		t.Errorf("file %q", got)
	}
}

func TestRunCancelTerminates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := fakeBin(t, dir, "claude", `trap '' TERM; echo '{"a":1}'; while :; do sleep 0.05; done`)
	s, out, _ := spec(t, mustCLI(t, "claude"), bin)
	s.KillDelay = 200 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancel once the agent ignores TERM, as a caller giving up would.
		for !strings.Contains(out.String(), `{"a":1}`) {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	res, err := Run(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 128+int(syscall.SIGKILL) {
		t.Errorf("exit %d, want SIGKILL's", res.ExitCode)
	}
	if lines := readLines(t, res.File); len(lines) != 1 {
		t.Errorf("file %q", lines)
	}
}

func TestRunEnvAndBinaryOverride(t *testing.T) {
	dir := t.TempDir()
	fakeBin(t, dir, "gemini", `case "$1" in --help) echo "  --output-format  text|json|stream-json";; *) echo "{\"base\":\"$SIFT_TEST_BASE\",\"inherited\":\"$SIFT_TEST_INHERITED\"}";; esac`)
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("SIFT_TEST_INHERITED", "yes")
	s, _, _ := spec(t, mustCLI(t, "gemini"), "", "-p", "hi")
	s.Env = []string{"SIFT_TEST_BASE=http://127.0.0.1:1"}
	res, err := Run(context.Background(), s)
	if err != nil || res.Mode != Structured || res.Argv[0] != "gemini" {
		t.Fatalf("%+v %v", res, err)
	}
	if got := readLines(t, res.File); len(got) != 1 || got[0] != `{"base":"http://127.0.0.1:1","inherited":"yes"}` {
		t.Errorf("file %q", got)
	}
}

func TestRunThirdInterruptKills(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := fakeBin(t, dir, "claude", `trap 'echo "{\"int\":1}"' INT; echo '{"ready":1}'; while :; do sleep 0.05; done`)
	s, out, _ := spec(t, mustCLI(t, "claude"), bin)
	sigs := make(chan os.Signal, 3)
	s.Signals = sigs
	go func() {
		for !strings.Contains(out.String(), "ready") {
			time.Sleep(5 * time.Millisecond)
		}
		for range 3 {
			sigs <- os.Interrupt
			time.Sleep(100 * time.Millisecond)
		}
	}()
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 128+int(syscall.SIGKILL) {
		t.Errorf("exit %d, want SIGKILL's", res.ExitCode)
	}
	if n := strings.Count(out.String(), `{"int":1}`); n != 2 {
		t.Errorf("the agent saw %d interrupts, want 2 before the kill", n)
	}
}
