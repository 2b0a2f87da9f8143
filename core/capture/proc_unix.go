//go:build unix

package capture

import (
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// foregroundTTY returns the descriptor of stdin when it is the terminal
// whose foreground process group is sift's own (sift run typed at a
// shell), else -1.
func foregroundTTY(stdin io.Reader) int {
	f, ok := stdin.(*os.File)
	if !ok || f == nil {
		return -1
	}
	fd := int(f.Fd())
	pg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	if err != nil || pg != unix.Getpgrp() {
		return -1
	}
	return fd
}

// setGroup starts the agent in the process group pgid (0: a new group it
// leads), apart from sift's, so a forwarded signal reaches the tools it
// spawned too. At a terminal (tty >= 0) that group becomes the terminal's
// foreground group: the agent may read the terminal, and ctrl+c reaches it
// straight from the terminal. Where the system has one, the agent gets
// SIGKILL when sift dies (see deathSignal).
func setGroup(cmd *exec.Cmd, tty, pgid int) {
	attr := &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
	if tty >= 0 {
		attr.Foreground, attr.Ctty = true, tty
	}
	deathSignal(attr)
	cmd.SysProcAttr = attr
}

// restoreForeground gives the terminal back to sift's process group after
// the agent exits.
func restoreForeground(tty int) {
	if tty < 0 {
		return
	}
	// A background group changing the foreground gets SIGTTOU unless it
	// ignores it.
	signal.Ignore(syscall.SIGTTOU)
	defer signal.Reset(syscall.SIGTTOU)
	unix.IoctlSetPointerInt(tty, unix.TIOCSPGRP, unix.Getpgrp()) //nolint:errcheck // best effort
}

// signalGroup sends sig to the process group led by pid.
func signalGroup(pid int, sig os.Signal) error {
	s, ok := sig.(syscall.Signal)
	if !ok {
		s = syscall.SIGTERM
	}
	return syscall.Kill(-pid, s)
}

// exitCode is the agent's exit status, 128+N when signal N ended it (the
// shell's convention).
func exitCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// forwarded are the signals sift passes on to the agent.
func forwarded() []os.Signal {
	return []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}
}

// killed reports whether a signal ended the agent.
func killed(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
}

// terminate is the signal a cancelled run sends first.
func terminate() os.Signal { return syscall.SIGTERM }

// errBusy is the error of starting an executable still open for writing.
var errBusy error = syscall.ETXTBSY

// holdPipe makes a write to a closed stdout or stderr (sift run … | head)
// fail with EPIPE instead of killing sift, which would leave the agent
// running and its file unfinished. stop restores the default.
func holdPipe() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGPIPE)
	return func() { signal.Stop(ch) }
}
