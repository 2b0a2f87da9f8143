package capture

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/agentsift/sift/core/layout"
)

// The modes of what capture creates: private to the user.
const (
	fileMode = 0o600
	dirMode  = 0o700
)

// Iteration returns the iteration a phase's file is named with: work and
// merge always use 1; other phases use it (at least 1).
func Iteration(phase string, it int) int {
	if phase == "work" || phase == "merge" || it < 1 {
		return 1
	}
	return it
}

// CreateFile creates the stream file of one invocation,
// <root>/<workItem>/<phase>-<iteration>-<hex12>.jsonl, with twelve random
// lowercase hex digits so that a retry never overwrites an earlier attempt
// and two machines writing into one store never name two runs alike (the
// store keys a session by work item and file name). The
// file is created 0600 and the folders it needs 0700 (before the umask):
// a stream holds prompts, outputs and any secret redaction missed.
func CreateFile(root, workItem, phase string, iteration int) (*os.File, error) {
	if err := layout.CheckName("work item", workItem); err != nil {
		return nil, err
	}
	if err := layout.CheckName("phase", phase); err != nil {
		return nil, err
	}
	// A root this call creates is sift's own: layout.MakeRoot marks it.
	if _, err := layout.MakeRoot(root); err != nil {
		return nil, err
	}
	dir := filepath.Join(root, workItem)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return nil, err
	}
	for range 16 {
		var b [6]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		name := phase + "-" + strconv.Itoa(iteration) + "-" + hex.EncodeToString(b[:]) + ".jsonl"
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("create a stream file in %s: every name tried exists", dir)
}
