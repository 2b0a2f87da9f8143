package store

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/core/proc"
	"github.com/agentsift/sift/core/review"
)

// startSleeper starts a real child process that lives until the test
// kills it, and returns it with its identity as sift run would record it.
func startSleeper(t *testing.T) (*exec.Cmd, proc.Owner) {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	pid := cmd.Process.Pid
	o, ok := proc.Of(pid)
	if !ok || o.Start == "" {
		t.Fatalf("no start time for live pid %d", pid)
	}
	return cmd, o
}

// killHard sends SIGKILL and reaps the child, as a killed `sift run`
// whose shell collects it.
func killHard(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
}

// staleFixture records a running invocation of work item wi owned by o,
// with a stream file of its own under root, and returns the store path
// and the file.
func staleFixture(t *testing.T, dbPath, root, wi string, o proc.Owner) string {
	t.Helper()
	s, err := Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	file := copyFile(t, filepath.Join(fixtures, auditFixture), filepath.Join(root, wi, "work-1-a1b2c3.jsonl"))
	ctx := context.Background()
	if _, err := s.RecordInvocation(ctx, Invocation{WorkItemID: wi, Phase: "work", Iteration: 1, AgentKind: "claude",
		File: file, Start: time.Now().Add(-time.Minute), Owner: o}); err != nil {
		t.Fatal(err)
	}
	if res := mustImport(t, s, root); res.Deferred != 1 {
		t.Fatalf("import while the run is recorded as running: %+v", res)
	}
	return file
}

func TestStaleRunOfKilledProcessIsEnded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, root := testDB(t), filepath.Join(dir, "logs")
	cmd, owner := startSleeper(t)
	file := staleFixture(t, db, root, "wi-killed", owner)
	killHard(t, cmd)

	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	// Opening the store judges no process: the application's open reaps.
	if st, _ := s.WorkItemState(ctx, "wi-killed"); st.IsTerminal() {
		t.Fatalf("store.Open ended a run (%q): judging processes is not the store's", st)
	}
	if _, err := s.ReapStaleRuns(ctx, proc.Judge()); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.WorkItemState(ctx, "wi-killed"); st != WorkItemTerminal {
		t.Fatalf("work item of a SIGKILLed run is %q after the reap", st)
	}
	// The next import no longer defers the file: it reads it (the store
	// reads no file itself).
	if res := mustImport(t, s, root); res.Deferred != 0 || res.Sessions != 1 {
		t.Fatalf("import after the stale run was ended: %+v", res)
	}
	if _, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi-killed", FileName: filepath.Base(file)}); err != nil {
		t.Fatalf("the killed run's file was not imported: %v", err)
	}
	costs, err := s.Costs(ctx, "wi-killed")
	if err != nil {
		t.Fatal(err)
	}
	c := costs[0]
	if c.End == nil || c.ExitCode != nil || !strings.Contains(c.RawMetadataJSON, `"stale":true`) {
		t.Fatalf("stale invocation row: end %v exit %v meta %s", c.End, c.ExitCode, c.RawMetadataJSON)
	}
	// Later imports skip it, unchanged.
	res := mustImport(t, s, root)
	if res.Deferred != 0 || res.Skipped != 1 {
		t.Fatalf("import after the stale run was ended: %+v", res)
	}
}

func TestStaleRunJudgement(t *testing.T) {
	t.Parallel()
	live, liveOwner := startSleeper(t)
	dead, deadOwner := startSleeper(t)
	killHard(t, dead)
	_ = live
	reused := liveOwner
	reused.Start = "1" // the same pid, a process started at another time
	otherHost := deadOwner
	otherHost.Host = "another-machine"
	otherNS := deadOwner
	otherNS.PIDNamespace = "pid:[1]"
	earlierBoot := liveOwner
	earlierBoot.Boot = "00000000-0000-0000-0000-000000000000"
	tests := []struct {
		name    string
		owner   proc.Owner
		running bool
	}{
		{"live pid is left alone", liveOwner, true},
		{"dead pid is ended", deadOwner, false},
		{"reused pid with another start time is ended", reused, false},
		{"pid of an earlier boot is ended", earlierBoot, false},
		{"another host's row is never judged", otherHost, true},
		{"another pid namespace's row is never judged", otherNS, true},
		{"a row without owner is never judged", proc.Owner{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			db := testDB(t)
			staleFixture(t, db, filepath.Join(dir, "logs"), "wi-1", tc.owner)
			s, err := Open(db)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.ReapStaleRuns(context.Background(), proc.Judge()); err != nil {
				t.Fatal(err)
			}
			st, err := s.WorkItemState(context.Background(), "wi-1")
			if err != nil {
				t.Fatal(err)
			}
			if got := !st.IsTerminal(); got != tc.running {
				t.Fatalf("running = %v, want %v", got, tc.running)
			}
		})
	}
}
