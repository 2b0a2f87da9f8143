// Package proc is a process's identity and liveness: who runs a `sift
// run` (pid, start time, machine, pid namespace, boot), and whether that
// process is still alive, judged from this machine.
package proc

import (
	"os"
	"strings"
)

// Owner identifies the process that runs an invocation, so that a later
// sift on the same host can tell whether that process is still alive or
// died without recording the end of its run (SIGKILL, a power cut).
//
// A pid alone is not enough: pids are reused. On Linux the process's start
// time (field 22 of /proc/PID/stat, clock ticks since boot) tells a reused
// pid from the original, and the boot id tells a pid of an earlier boot
// from one of this boot. Elsewhere on Unix only the pid's existence is
// checked, so a reused pid counts as alive (the run stays open, as before).
type Owner struct {
	// PID is the process id; 0 means no owner was recorded.
	PID int
	// Start is the process's start time as the system counts it, a
	// decimal string; empty when unknown.
	Start string
	// Host names the machine: /etc/machine-id, else the host name. A row
	// of another host is never judged.
	Host string
	// PIDNamespace is the pid namespace the pid belongs to (Linux:
	// the target of /proc/self/ns/pid); empty when unknown. Two sifts on
	// one machine in different containers share the host id but not the
	// pids, so a row of another pid namespace is never judged either.
	PIDNamespace string
	// Boot is the boot id (/proc/sys/kernel/random/boot_id); empty when
	// unknown.
	Boot string
}

// Current returns the identity of the calling process.
func Current() Owner {
	o, _ := Of(os.Getpid())
	return o
}

// Of returns the identity of process pid on this machine, and whether it
// runs.
func Of(pid int) (Owner, bool) {
	start, alive := processStart(pid)
	return Owner{PID: pid, Start: start, Host: HostID(), PIDNamespace: pidNamespace(), Boot: bootID()}, alive
}

// HostID names this machine: /etc/machine-id, else the host name.
func HostID() string {
	if b, err := os.ReadFile("/etc/machine-id"); err == nil {
		if id := strings.TrimSpace(string(b)); id != "" {
			return id
		}
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		return "hostname:" + h
	}
	return ""
}

// SameMachine reports whether an owner was recorded on this machine and in
// this pid namespace, so that its pid means the same process here.
func (o Owner) SameMachine(here Owner) bool {
	if o.Host == "" || o.Host != here.Host {
		return false
	}
	return o.PIDNamespace == here.PIDNamespace
}

// Gone reports whether the owner's process no longer runs, judged from
// this machine (SameMachine must hold): a different boot, no such pid, or
// a pid now held by a process that started at another time.
func (o Owner) Gone(here Owner) bool {
	if o.Boot != "" && here.Boot != "" && o.Boot != here.Boot {
		return true
	}
	start, alive := processStart(o.PID)
	if !alive {
		return true
	}
	return o.Start != "" && start != "" && start != o.Start
}

// Judge returns a judge of owners from this machine: whether an owner's
// process ran here and is gone. It reads this process's identity at its
// first call only, so that a judge never asked reads nothing.
func Judge() func(Owner) bool {
	var here *Owner
	return func(o Owner) bool {
		if here == nil {
			cur := Current()
			here = &cur
		}
		return o.SameMachine(*here) && o.Gone(*here)
	}
}
