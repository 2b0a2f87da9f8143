//go:build !unix

package capture

import (
	"errors"
	"io"
	"os"
	"os/exec"
)

// foregroundTTY reports no terminal to hand over.
func foregroundTTY(io.Reader) int { return -1 }

// setGroup is a no-op where process groups do not exist.
func setGroup(*exec.Cmd, int, int) {}

// group is nothing where process groups do not exist.
type group struct{}

// newGroup returns no group.
func newGroup() (*group, error) { return nil, nil }

// id is 0: no group to join.
func (*group) id() int { return 0 }

// leader is the agent's pid, which signalGroup signals.
func (*group) leader(agent int) int { return agent }

// release is a no-op.
func (*group) release() {}

// killed reports no signal: there are none to end a process with.
func killed(*os.ProcessState) bool { return false }

// restoreForeground is a no-op.
func restoreForeground(int) {}

// signalGroup signals the agent process itself.
func signalGroup(pid int, sig os.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(sig)
}

// exitCode is the agent's exit status.
func exitCode(ps *os.ProcessState) int { return ps.ExitCode() }

// forwarded are the signals sift passes on to the agent.
func forwarded() []os.Signal { return []os.Signal{os.Interrupt} }

// terminate is the signal a cancelled run sends first.
func terminate() os.Signal { return os.Kill }

// errBusy never matches where executables cannot be busy.
var errBusy = errors.New("text file busy")

// holdPipe is a no-op.
func holdPipe() (stop func()) { return func() {} }
