//go:build unix

package redact

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system, all
// threads, the garbage collector's included). On a machine shared with
// other work it measures the redactor where wall time measures the queue.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
