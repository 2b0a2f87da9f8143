package proc

import (
	"os"
	"strconv"
	"strings"
)

// processStart returns the start time of process pid (field 22 of
// /proc/PID/stat: clock ticks since boot) and whether the process exists.
// A zombie counts as gone: it has ended and only waits to be reaped.
func processStart(pid int) (string, bool) {
	if pid <= 0 {
		return "", false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	// The second field, the command name, is in parentheses and may hold
	// spaces and parentheses itself: the fields after it start after the
	// last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", true
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state), so field 22 is f[19].
	if len(f) < 20 {
		return "", true
	}
	if f[0] == "Z" || f[0] == "X" {
		return "", false
	}
	return f[19], true
}

// pidNamespace names the pid namespace of this process.
func pidNamespace() string {
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	return ns
}

// bootID returns the kernel's id of the current boot.
func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
