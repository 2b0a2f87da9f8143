//go:build unix

package capture

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv holds the helperSpec of a test binary re-executed as `sift
// run` (see TestHelperSiftRun).
const helperEnv = "SIFT_CAPTURE_HELPER"

// helperSpec is what the helper runs.
type helperSpec struct {
	CLI, Bin, Root string
	// Slow makes the redactor stick on SLOW lines for good.
	Slow bool
}

// TestHelperSiftRun is no test of its own: re-executed by other tests
// with helperEnv set, the test binary acts as `sift run`: it runs the
// agent through Run with sift's own signals and streams, and exits with
// the agent's code.
func TestHelperSiftRun(t *testing.T) {
	env := os.Getenv(helperEnv)
	if env == "" {
		t.Skip("a helper process for other tests")
	}
	var h helperSpec
	if err := json.Unmarshal([]byte(env), &h); err != nil {
		t.Fatal(err)
	}
	cli, err := LookupCLI(h.CLI)
	if err != nil {
		t.Fatal(err)
	}
	s := Spec{CLI: cli, Binary: h.Bin, Enabled: true, Root: h.Root, WorkItem: "wi-1", Phase: "work", Iteration: 1,
		MaxFileBytes: 32 << 20, Stdin: strings.NewReader(""), Stdout: os.Stdout, Stderr: os.Stderr,
		Prober: Prober{CacheDir: h.Root}}
	if h.Slow {
		s.redactDelay = func(b []byte) {
			if bytes.Contains(b, []byte("SLOW")) {
				time.Sleep(time.Hour)
			}
		}
	}
	res, err := Run(context.Background(), s)
	if err != nil {
		os.Exit(127)
	}
	os.Exit(res.ExitCode)
}

// startHelper starts the test binary as `sift run` on an agent and
// returns it with a reader of its stdout.
func startHelper(t testing.TB, h helperSpec, stderr io.Writer) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	spec, _ := json.Marshal(h)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSiftRun$")
	cmd.Env = append(os.Environ(), helperEnv+"="+string(spec))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill() //nolint:errcheck // it may be gone
		cmd.Wait()         //nolint:errcheck
	})
	return cmd, bufio.NewReader(out)
}

// readUntil reads lines until one holds want, failing after d.
func readUntil(t testing.TB, r *bufio.Reader, want string, d time.Duration) {
	t.Helper()
	found := make(chan error, 1)
	go func() {
		for {
			l, err := r.ReadString('\n')
			if strings.Contains(l, want) {
				found <- nil
				return
			}
			if err != nil {
				found <- err
				return
			}
		}
	}()
	select {
	case err := <-found:
		if err != nil {
			t.Fatalf("stdout ended before %q: %v", want, err)
		}
	case <-time.After(d):
		t.Fatalf("no %q on stdout within %v", want, d)
	}
}

// alive reports whether pid is a process that has not exited: a zombie
// waiting for its reaper counts as gone.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return runtime.GOOS != "linux"
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// readPid reads a pid an agent wrote into a file, waiting for it.
func readPid(t *testing.T, path string) int {
	t.Helper()
	var pid int
	waitFor(t, "pid file "+filepath.Base(path), 20*time.Second, func() bool {
		b, err := os.ReadFile(path)
		if err != nil || !bytes.HasSuffix(b, []byte("\n")) {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	})
	return pid
}

// pgidOf returns a process's group.
func pgidOf(t *testing.T, pid int) int {
	t.Helper()
	pg, err := syscall.Getpgid(pid)
	if err != nil {
		t.Fatal(err)
	}
	return pg
}

// TestAgentGroupDiesWithSift reproduces the lifecycle fault of #12: a
// SIGKILLed `sift run` left its agent and the agent's tools running. Now
// the agent's whole process group ends with sift. The tool ignores
// SIGTERM and SIGHUP, as a stubborn build would. On Linux the agent also
// dies of its death signal when the watchdog is gone.
func TestAgentGroupDiesWithSift(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		killWatchdog bool
	}{{"watchdog", false}, {"pdeathsig", true}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.killWatchdog && runtime.GOOS != "linux" {
				t.Skip("the parent-death signal is Linux's")
			}
			t.Parallel()
			dir := t.TempDir()
			agentPid, toolPid := filepath.Join(dir, "agent.pid"), filepath.Join(dir, "tool.pid")
			bin := fakeBin(t, dir, "claude", `(trap '' TERM HUP; exec sleep 300) &
echo $! > `+toolPid+`
echo $$ > `+agentPid+`
echo '{"type":"ready"}'
wait
`)
			cmd, out := startHelper(t, helperSpec{CLI: "claude", Bin: bin, Root: filepath.Join(dir, "logs")}, os.Stderr)
			readUntil(t, out, `{"type":"ready"}`, 20*time.Second)
			agent, tool := readPid(t, agentPid), readPid(t, toolPid)
			t.Cleanup(func() {
				syscall.Kill(agent, syscall.SIGKILL) //nolint:errcheck // a failed test leaves nothing behind
				syscall.Kill(tool, syscall.SIGKILL)  //nolint:errcheck
			})
			group := pgidOf(t, agent)
			if group == pgidOf(t, os.Getpid()) || group != pgidOf(t, tool) {
				t.Fatalf("agent group %d, tool group %d, sift's %d", group, pgidOf(t, tool), pgidOf(t, os.Getpid()))
			}
			if tc.killWatchdog {
				// The group's leader is the watchdog.
				if group == agent {
					t.Fatal("the agent leads its own group: there is no watchdog")
				}
				if err := syscall.Kill(group, syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				waitFor(t, "the watchdog dying", 10*time.Second, func() bool { return !alive(group) })
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			cmd.Wait() //nolint:errcheck // killed
			waitFor(t, "the agent dying with sift", 20*time.Second, func() bool { return !alive(agent) })
			if !tc.killWatchdog {
				waitFor(t, "the agent's tool dying with sift", 20*time.Second, func() bool { return !alive(tool) })
			}
		})
	}
}

// TestRunEndsRunReleasesWatchdog checks that a run that ends normally
// lets its watchdog go without killing anything: a tool the agent left
// running in the background survives, as it would without sift.
func TestRunEndsRunReleasesWatchdog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	toolPid := filepath.Join(dir, "tool.pid")
	bin := fakeBin(t, dir, "claude", `sleep 300 </dev/null >/dev/null 2>&1 &
echo $! > `+toolPid+`
echo '{"type":"done"}'
`)
	s, _, _ := spec(t, mustCLI(t, "claude"), bin)
	res, err := Run(context.Background(), s)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	tool := readPid(t, toolPid)
	t.Cleanup(func() { syscall.Kill(tool, syscall.SIGKILL) }) //nolint:errcheck
	watchdog := pgidOf(t, tool)
	waitFor(t, "the watchdog exiting", 10*time.Second, func() bool { return !alive(watchdog) })
	if !alive(tool) {
		t.Error("the agent's background tool was killed at a normal end")
	}
}

// TestSiftSIGTERMWhileRedactorBusy sends sift itself a real SIGTERM while
// its redactor is stuck on a line: the later output reaches sift's stdout
// without waiting for the redactor, sift forwards the signal, exits with
// the agent's code, and the file holds a marker, never the secret.
func TestSiftSIGTERMWhileRedactorBusy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := fakeBin(t, dir, "claude", `trap 'echo "{\"type\":\"bye\"}"; exit 143' TERM
echo '{"type":"assistant","text":"SLOW `+ghToken+`"}'
i=0; while [ $i -lt 2000 ]; do printf '{"type":"item","n":%d,"text":"`+ghToken+`"}\n' $i; i=$((i+1)); done
echo '{"type":"ready"}'
while :; do sleep 0.05; done
`)
	root := filepath.Join(dir, "logs")
	cmd, out := startHelper(t, helperSpec{CLI: "claude", Bin: bin, Root: root, Slow: true}, os.Stderr)
	readUntil(t, out, `{"type":"ready"}`, 20*time.Second)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() {
		io.Copy(io.Discard, out) //nolint:errcheck // drain what is left
		exited <- cmd.Wait()
	}()
	var err error
	select {
	case err = <-exited:
	case <-time.After(30 * time.Second):
		t.Fatal("sift did not exit after SIGTERM while its redactor was busy")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Fatalf("sift exited with %v, want the agent's 143", err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "wi-1", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("files %q", files)
	}
	data, _ := os.ReadFile(files[0])
	if bytes.Contains(data, []byte(ghToken)) || !bytes.Contains(data, []byte(`"type":"`+SkippedType+`"`)) {
		t.Errorf("file:\n%.400s", data)
	}
}

// TestProbeDoesNotWaitForHeldPipe checks that a probe whose CLI leaves a
// process holding its output pipe (a daemon it started) returns once the
// CLI itself has exited, instead of waiting for that process.
func TestProbeDoesNotWaitForHeldPipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "daemon.pid")
	bin := fakeBin(t, dir, "gemini", `[ "$1" = "--help" ] || exit 9
sleep 300 &
echo $! > `+pidFile+`
echo "  -o, --output-format  [choices: \"text\", \"json\", \"stream-json\"]"
`)
	t.Cleanup(func() { syscall.Kill(readPid(t, pidFile), syscall.SIGKILL) }) //nolint:errcheck
	got := make(chan Mode, 1)
	go func() { got <- (Prober{}).Mode(context.Background(), mustCLI(t, "gemini"), bin) }()
	select {
	case m := <-got:
		if m != Structured {
			t.Errorf("mode %v, want structured", m)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the probe waited for the process holding its pipe")
	}
}
