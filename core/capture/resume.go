package capture

import (
	"strings"

	"github.com/agentsift/sift/core/agents"
)

// Resume is how to resume an agent's session with a new prompt: the
// command a follow-up hands the reviewer.
type Resume struct {
	// Argv is the command, the agent's binary first; nil when there is
	// none (Why says why).
	Argv []string
	// Dir is the folder to run it in: the working directory sift run
	// recorded for the session, "" when unknown. The agents keep their
	// sessions per project folder, so a resume elsewhere finds none.
	Dir string
	// Why says why there is no command; "" when there is one.
	Why string
}

// ResumeCommand returns how to resume an agent's session (its harness
// session id) with a prompt, in the session's recorded working directory
// (cwd, "" when unknown). The session id is used only when it matches the
// harness's own id pattern: text from a stream never becomes a flag or a
// command. A harness whose CLI sift cannot check, a missing or malformed
// id and an empty prompt give no command, and Why says which.
func ResumeCommand(kind agents.Kind, sessionID, cwd, prompt string) Resume {
	r := Resume{Dir: cwd}
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
	case strings.TrimSpace(prompt) == "":
		r.Why = "no resume command: the follow-up has no note to send as the prompt"
	default:
		r.Argv = append([]string{h.CLI.Binary}, h.Resume.Args(sessionID, prompt)...)
	}
	return r
}

// Shell returns the command as one POSIX shell line, every argument
// quoted, after `cd DIR &&` when the folder is known; "" when there is no
// command.
func (r Resume) Shell() string {
	if len(r.Argv) == 0 {
		return ""
	}
	words := make([]string, len(r.Argv))
	for i, a := range r.Argv {
		words[i] = ShellQuote(a)
	}
	line := strings.Join(words, " ")
	if r.Dir != "" {
		line = "cd " + ShellQuote(r.Dir) + " && " + line
	}
	return line
}

// ShellQuote quotes a word for a POSIX shell: in single quotes, each
// single quote of the word closed, escaped and opened again. Nothing
// inside single quotes is special, so the word reaches the program as it
// is.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
