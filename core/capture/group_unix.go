//go:build unix

package capture

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// group is the process group the agent and the tools it spawns run in. Its
// leader is a watchdog: a small /bin/sh that ignores the signals sift
// forwards to the group and blocks reading a pipe whose write end only
// sift holds. When sift dies, even of SIGKILL, the kernel closes that end,
// the read returns and the watchdog kills its whole group. At the end of a
// run sift writes a line instead, and the watchdog exits without killing
// anything. While it lives, the group's id cannot be reused, so neither its
// kill nor a signal sift forwards can reach an unrelated group.
type group struct {
	cmd *exec.Cmd
	w   *os.File
}

// watchdogScript is the watchdog. It ignores the job-control and
// termination signals a terminal or sift sends the group, says it is
// ready (after the trap, so no signal can catch it unprepared), then waits
// for sift's line or for the pipe's end. `kill 0` signals its own group.
// It runs with an empty environment, and nothing from the agent or its
// stream reaches it.
const watchdogScript = `trap '' INT TERM HUP QUIT TSTP TTIN TTOU PIPE
echo ready
if read -r line; then exit 0; fi
kill -s KILL 0`

// watchdogReady bounds how long newGroup waits for the watchdog to start.
const watchdogReady = 5 * time.Second

// newGroup starts the watchdog in a process group of its own.
func newGroup() (*group, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start the watchdog: %w", err)
	}
	defer r.Close()
	out, outW, err := os.Pipe()
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("start the watchdog: %w", err)
	}
	defer out.Close()
	cmd := exec.Command("/bin/sh", "-c", watchdogScript)
	cmd.Stdin, cmd.Stdout = r, outW
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	outW.Close()
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("start the watchdog: %w", err)
	}
	g := &group{cmd: cmd, w: w}
	out.SetReadDeadline(time.Now().Add(watchdogReady)) //nolint:errcheck // a pipe supports deadlines
	buf := make([]byte, len("ready\n"))
	if _, err := io.ReadFull(out, buf); err != nil || !bytes.Equal(buf, []byte("ready\n")) {
		g.release()
		return nil, fmt.Errorf("start the watchdog: it did not get ready (%v)", err)
	}
	return g, nil
}

// id is the group for the agent to join; 0 (a new group) without a
// watchdog.
func (g *group) id() int {
	if g == nil {
		return 0
	}
	return g.cmd.Process.Pid
}

// leader is the id of the agent's group: the watchdog's, or the agent's
// own pid without one.
func (g *group) leader(agent int) int {
	if g == nil {
		return agent
	}
	return g.cmd.Process.Pid
}

// release lets the watchdog exit without killing the group, and reaps it.
func (g *group) release() {
	if g == nil {
		return
	}
	g.w.Write([]byte("\n")) //nolint:errcheck // EPIPE: it is gone already
	g.w.Close()
	done := make(chan struct{})
	go func() {
		g.cmd.Wait() //nolint:errcheck // its status says nothing
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		// Stopped or stuck: kill it alone, not its group.
		g.cmd.Process.Kill() //nolint:errcheck
		<-done
	}
}
