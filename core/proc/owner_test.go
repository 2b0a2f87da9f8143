package proc

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// TestJudgeTellsLiveFromGone judges real processes: a live child, the
// same child once killed and reaped, and owners of another machine or
// pid namespace, which are never judged.
func TestJudgeTellsLiveFromGone(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("start times are read from /proc on Linux only")
	}
	cur := Current()
	if cur.PID != os.Getpid() || cur.Start == "" || cur.Host == "" {
		t.Fatalf("Current() = %+v", cur)
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	child, alive := Of(cmd.Process.Pid)
	if !alive || child.Start == "" {
		t.Fatalf("Of(live child) = %+v, %v", child, alive)
	}
	judge := Judge()
	if judge(child) {
		t.Fatal("a live process was judged gone")
	}
	reused := child
	reused.Start += "0"
	if !judge(reused) {
		t.Fatal("a pid held by a process of another start time was judged alive")
	}
	otherHost, otherNS := child, child
	otherHost.Host += "-elsewhere"
	otherNS.PIDNamespace += "-other"
	cmd.Process.Kill()
	cmd.Wait()
	if !judge(child) {
		t.Fatal("a killed process was judged alive")
	}
	if judge(otherHost) || judge(otherNS) || judge(Owner{}) {
		t.Fatal("an owner of another machine, pid namespace, or none was judged")
	}
}
