//go:build unix && !linux

package capture

import "syscall"

// deathSignal is a no-op: only Linux has a portable parent-death signal;
// the watchdog (see group) still ends the agent's group when sift dies.
func deathSignal(*syscall.SysProcAttr) {}
