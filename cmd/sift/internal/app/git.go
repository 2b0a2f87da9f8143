package app

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// gitTimeout bounds the read of a work tree's HEAD: a run is never held up
// by a slow or hung git.
const gitTimeout = 5 * time.Second

// agentDir is the agent's working directory: dir (capture.Spec.Dir) when
// set, else sift's own.
func agentDir(dir string) string {
	if dir == "" {
		if wd, err := os.Getwd(); err == nil {
			return wd
		}
	}
	return dir
}

// gitHead returns the commit HEAD names in the git work tree dir is in,
// "" when dir is not in one, it has no commit yet, or git is absent.
func gitHead(ctx context.Context, dir string) string {
	if dir == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}").Output()
	if err != nil {
		return ""
	}
	head := strings.TrimSpace(string(out))
	if !commitID().MatchString(head) {
		return ""
	}
	return head
}

// commitID matches a full SHA-1 or SHA-256 commit id.
func commitID() *regexp.Regexp { return regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`) }

// recordGitHeads records the work tree's HEAD before or after the run on
// the invocation; a failure is a warning, the run goes on.
func (r *invocationRun) recordGitHeads(ctx context.Context, before, after string) {
	if !r.rec || before == "" && after == "" {
		return
	}
	if err := r.st.RecordGitHeads(ctx, r.invID, before, after); err != nil {
		r.warn("%v", err)
	}
}
