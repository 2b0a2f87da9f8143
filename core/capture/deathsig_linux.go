package capture

import "syscall"

// deathSignal asks Linux to SIGKILL the agent when the thread that started
// it exits, which startAgent keeps alive as long as the agent: when sift
// dies, even of SIGKILL, the agent dies too. Its tools are the watchdog's
// (see group).
func deathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
