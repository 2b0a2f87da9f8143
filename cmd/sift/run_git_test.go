package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// git runs git in dir with a fixed identity and returns its output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=sift", "-c", "user.email=sift@example.com",
		"-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestRunRecordsTheCommitsBeforeAndAfter: `sift run` in a git work tree
// records HEAD before the agent starts and after it ends, and the inbox's
// session carries both; here the agent (a script) commits a file.
// It changes the process's folder, so it does not run in parallel.
func TestRunRecordsTheCommitsBeforeAndAfter(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (apt-get install git)")
	}
	fixture, err := filepath.Abs(runFixture)
	if err != nil {
		t.Fatal(err)
	}
	e := newRunEnv(t, "")
	repo := filepath.Join(e.dir, "repo")
	git(t, e.dir, "init", "-q", repo)
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "start")
	before := git(t, repo, "rev-parse", "HEAD")
	agent := fakeAgent(t, e.dir, "claude", `echo hi > notes.txt
git -c user.name=agent -c user.email=agent@example.com -c commit.gpgsign=false add notes.txt
git -c user.name=agent -c user.email=agent@example.com -c commit.gpgsign=false commit -q -m "add notes"
cat `+fixture+"\n")
	t.Chdir(repo)
	if code, _, stderr := e.run(t, "--agent", "claude", "--work-item", "wi-git", "--bin", agent, "--", "-p", "hi"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	after := git(t, repo, "rev-parse", "HEAD")
	if after == before {
		t.Fatal("the agent made no commit")
	}
	files, _ := filepath.Glob(filepath.Join(e.logs, "wi-git", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("stream files %q", files)
	}
	st, err := store.Open(e.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := st.GetSession(context.Background(), review.SessionKey{WorkItemID: "wi-git", FileName: filepath.Base(files[0])})
	if err != nil {
		t.Fatal(err)
	}
	if s.GitBefore != before || s.GitAfter != after {
		t.Errorf("session git %q → %q, want %q → %q", s.GitBefore, s.GitAfter, before, after)
	}
}

// TestRunOutsideAWorkTreeRecordsNoCommits: a folder that is not in a git
// work tree records none.
func TestRunOutsideAWorkTreeRecordsNoCommits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "sift.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if b, a, err := st.InvocationGitHeads(context.Background(), "wi", "f.jsonl"); b != "" || a != "" || err != nil {
		t.Errorf("InvocationGitHeads of nothing = %q %q %v", b, a, err)
	}
}
