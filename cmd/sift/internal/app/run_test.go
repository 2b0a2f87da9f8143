package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/store"
)

// TestRunSummarizeFaultIsAWarning: a fault while summarizing the finished
// run (here forced by a run without its environment) is one warning, and
// the run has no summary; the caller then exits with the agent's code.
func TestRunSummarizeFaultIsAWarning(t *testing.T) {
	t.Parallel()
	var warnings []string
	r := &invocationRun{warnf: func(msg string) { warnings = append(warnings, msg) }}
	file := filepath.Join(t.TempDir(), "work-1-abcdef.jsonl")
	if err := os.WriteFile(file, []byte(`{"type":"system","subtype":"init","session_id":"s1"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := r.summarize(t.Context(), capture.Result{File: file})
	if sum != nil {
		t.Errorf("summary %+v", sum)
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "summarize: internal error: ") || strings.Contains(warnings[0], "\n") {
		t.Errorf("warnings %q", warnings)
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
	r := &invocationRun{st: st, workItem: "wi-dir", phase: "work", iteration: 1}
	r.cli.Kind = "claude"
	r.record(filepath.Join(dir, "logs", "wi-dir", "work-1-abcdef.jsonl"), time.Now(), agentDir)
	if !r.rec {
		t.Fatal("the invocation was not recorded")
	}
	if got, err := st.InvocationCwd(context.Background(), "wi-dir", "work-1-abcdef.jsonl"); err != nil || got != agentDir {
		t.Errorf("recorded cwd %q, %v; want the agent's %q", got, err, agentDir)
	}
}

// TestGitHeadOutsideAWorkTree: a folder that is not in a git work tree
// has no HEAD.
func TestGitHeadOutsideAWorkTree(t *testing.T) {
	t.Parallel()
	if h := gitHead(context.Background(), t.TempDir()); h != "" {
		t.Errorf("gitHead of a plain folder = %q", h)
	}
}
