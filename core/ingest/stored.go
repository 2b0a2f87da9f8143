package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/agentsift/sift/core/agents"
)

// storedSessions lists the sessions of a history that keeps them in a
// database or a folder per session (agents.History.Sessions) as the files
// of an import: each keyed by its container and the harness's own id
// (agents.StoredKey), with its change token for size and mtime, so that
// the ingest index skips an unchanged session and reads a grown one as it
// does a file. The work item is the project the harness recorded, spelled
// as Claude Code spells project folders; a session that records none is
// under the harness's name. What the history keeps open to render them
// is let go when the import ends (Found.close).
func storedSessions(agent agents.Kind, root string, h *agents.History, found *Found) ([]File, []Failure) {
	ss, done, err := h.Sessions(root)
	if done != nil {
		found.done = append(found.done, done)
	}
	var fails []Failure
	if err != nil {
		fails = append(fails, Failure{root, reason(err)})
	}
	out := make([]File, 0, len(ss))
	for _, s := range ss {
		l := Layout{Phase: PhaseInteractive, FileName: s.ID, WorkItemID: string(agent.Harness())}
		if s.Project != "" {
			l.WorkItemID = ProjectID(s.Project)
		}
		out = append(out, File{Path: s.Key, Size: s.Size, MTime: s.MTime, Layout: l, history: agent, lines: s.Lines})
	}
	return out, fails
}

// storedReader renders a stored session as the reader its parse reads.
func storedReader(f *File) (*bytes.Reader, error) {
	b, err := f.lines()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Path, err)
	}
	return bytes.NewReader(b), nil
}

// openStored renders the stored session a key names (agents.RenderStored)
// into an unnamed temporary file, for a reader that reads a session's
// stream again as a file (the inbox's detail, an export). ok is false for
// a path that is no stored session's key.
func openStored(path string) (f *os.File, ok bool, err error) {
	lines, ok, err := agents.RenderStored(path)
	if !ok {
		return nil, false, nil
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, true, nil
		}
		return nil, true, err
	}
	if lines == nil {
		// The session is gone from its container.
		return nil, true, nil
	}
	tmp, err := os.CreateTemp("", "sift-session-*.jsonl")
	if err != nil {
		return nil, true, err
	}
	// Unlinked at once: the open file is all there is of it.
	os.Remove(tmp.Name())
	if _, err := tmp.Write(lines); err != nil {
		tmp.Close()
		return nil, true, err
	}
	if _, err := tmp.Seek(0, 0); err != nil {
		tmp.Close()
		return nil, true, err
	}
	return tmp, true, nil
}
