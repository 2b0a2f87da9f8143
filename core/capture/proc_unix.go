//go:build unix

package capture

import (
	"os"
	"os/exec"
	"syscall"
)

// setGroup starts the agent in its own process group, so a forwarded
// signal reaches the tools it spawned too.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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

// terminate is the signal a cancelled run sends first.
func terminate() os.Signal { return syscall.SIGTERM }
