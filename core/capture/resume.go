package capture

import (
	"strings"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/review"
)

// ResumeCommand returns how to resume an agent's session (its harness
// session id): interactively, and, when the follow-up has a note, with
// the note sent as the prompt. It runs in the folder the run ran in:
// runCwd, the one `sift run` recorded, else streamCwd, the one the stream
// records, only when that is an absolute path to an existing folder (the
// stream is untrusted text); else the resume says the folder is unknown.
// The session id is used only when it matches the harness's own id
// pattern: text from a stream never becomes a flag or a command. A
// harness whose CLI sift cannot check and a missing or malformed id give
// no command, and Why says which.
func ResumeCommand(kind agents.Kind, sessionID, runCwd, streamCwd, note string) review.Resume {
	var r review.Resume
	streamFolder, _ := review.StreamFolder(streamCwd)
	switch {
	case runCwd != "":
		r.Dir, r.DirFrom = runCwd, review.DirFromRun
	case streamFolder != "":
		r.Dir, r.DirFrom = streamFolder, review.DirFromStream
	default:
		r.DirWhy = "the folder the run ran in is unknown: run it from the project's folder"
	}
	h, known := agents.LookupHarness(kind)
	switch {
	case !known:
		r.Why = "sift does not know the " + string(kind) + " CLI"
	case h.Resume == nil:
		r.Why = "no resume command: the " + h.CLI.Binary + " CLI is not pinned in sift's tests, so its resume flags are unchecked"
	case sessionID == "":
		r.Why = "no resume command: the stream names no " + string(kind) + " session id"
	case !h.Resume.ID.MatchString(sessionID):
		r.Why = "no resume command: the session id is not a " + string(kind) + " session id"
	default:
		r.Argv = append([]string{h.CLI.Binary}, h.Resume.Args(sessionID)...)
		if strings.TrimSpace(note) != "" {
			r.NoteArgv = append([]string{h.CLI.Binary}, h.Resume.Prompt(sessionID, note)...)
		}
	}
	return r
}
