package store

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

// CurrentOwner returns the identity of the calling process.
func CurrentOwner() Owner {
	pid := os.Getpid()
	start, _ := processStart(pid)
	return Owner{PID: pid, Start: start, Host: hostID(), PIDNamespace: pidNamespace(), Boot: bootID()}
}

// hostID names this machine: /etc/machine-id, else the host name.
func hostID() string {
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

// sameMachine reports whether an owner was recorded on this machine and in
// this pid namespace, so that its pid means the same process here.
func (o Owner) sameMachine(here Owner) bool {
	if o.Host == "" || o.Host != here.Host {
		return false
	}
	return o.PIDNamespace == here.PIDNamespace
}

// gone reports whether the owner's process no longer runs, judged from
// this machine (sameMachine must hold): a different boot, no such pid, or
// a pid now held by a process that started at another time.
func (o Owner) gone(here Owner) bool {
	if o.Boot != "" && here.Boot != "" && o.Boot != here.Boot {
		return true
	}
	start, alive := processStart(o.PID)
	if !alive {
		return true
	}
	return o.Start != "" && start != "" && start != o.Start
}
