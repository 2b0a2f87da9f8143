package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsift/sift/store"
	"github.com/agentsift/sift/tui"
)

// TestRunRecordsItsWorkingDirectory: `sift run` records the folder the
// agent ran in on its invocation, and the inbox's session carries it, so
// that `e` resolves the stream's relative paths there and nowhere else.
func TestRunRecordsItsWorkingDirectory(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, "")
	agent := fakeAgent(t, e.dir, "claude", "cat "+runFixture+"\n")
	if code, _, stderr := e.run(t, "--agent", "claude", "--work-item", "wi-cwd", "--bin", agent, "--", "-p", "hi"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(e.logs, "wi-cwd", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("stream files %q", files)
	}
	st, err := store.Open(e.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	name := filepath.Base(files[0])
	if got, err := st.InvocationCwd(ctx, "wi-cwd", name); err != nil || got != wd {
		t.Errorf("recorded cwd %q, %v; want sift's %q", got, err, wd)
	}
	s, err := newInboxStore(st).GetSession(ctx, tui.SessionKey{WorkItemID: "wi-cwd", FileName: name})
	if err != nil {
		t.Fatal(err)
	}
	if s.Cwd != wd || s.Path != files[0] {
		t.Errorf("inbox session cwd %q path %q; want %q and %q", s.Cwd, s.Path, wd, files[0])
	}
}

// TestRecordUsesTheAgentsDirectory: an agent started in its own folder
// (capture.Spec.Dir) is recorded with that folder, not sift's.
func TestRecordUsesTheAgentsDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "sift.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	agentDir := filepath.Join(dir, "repo")
	r := &invocationRun{st: st, workItem: "wi-dir", phase: "work", iteration: 1, stderr: os.Stderr}
	r.cli.Kind = "claude"
	r.record(filepath.Join(dir, "logs", "wi-dir", "work-1-abcdef.jsonl"), time.Now(), agentDir)
	if !r.rec {
		t.Fatal("the invocation was not recorded")
	}
	if got, err := st.InvocationCwd(context.Background(), "wi-dir", "work-1-abcdef.jsonl"); err != nil || got != agentDir {
		t.Errorf("recorded cwd %q, %v; want the agent's %q", got, err, agentDir)
	}
}
