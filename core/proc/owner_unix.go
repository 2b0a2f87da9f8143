//go:build unix && !linux

package proc

import (
	"errors"
	"syscall"
)

// processStart reports whether process pid exists; its start time is not
// known here, so a reused pid counts as the same process.
func processStart(pid int) (string, bool) {
	if pid <= 0 {
		return "", false
	}
	err := syscall.Kill(pid, 0)
	return "", err == nil || errors.Is(err, syscall.EPERM)
}

// pidNamespace is unknown outside Linux.
func pidNamespace() string { return "" }

// bootID is unknown outside Linux.
func bootID() string { return "" }
