package review

import (
	"os"
	"path/filepath"
	"strings"
)

// Resume is how to go back to a follow-up's agent session: the one
// command sift builds (core/capture.ResumeCommand) and every surface
// shows, the inbox, `sift followups`, `sift report` and the API.
type Resume struct {
	// Argv resumes the session interactively, the agent's binary first;
	// nil when there is no command (Why says why).
	Argv []string `json:"argv"`
	// NoteArgv sends the follow-up's note to the agent as the prompt
	// instead (the agent answers and exits); nil without a note.
	NoteArgv []string `json:"noteArgv,omitempty"`
	// Dir is the folder to run it in, "" when unknown (DirWhy says so):
	// the agents keep their sessions per project folder, so a resume
	// elsewhere finds none. DirFrom says where sift has it from: "sift
	// run" (its record) or "the stream" (the folder the stream records,
	// used only when it is an absolute path to an existing folder).
	Dir     string `json:"dir,omitempty"`
	DirFrom string `json:"dirFrom,omitempty"`
	DirWhy  string `json:"dirUnknown,omitempty"`
	// Why says why there is no command; "" when there is one.
	Why string `json:"unavailable,omitempty"`
}

// Where a resume's folder is from.
const (
	DirFromRun    = "sift run"
	DirFromStream = "the stream"
)

// NoteLabel names the second form of a resume (NoteArgv), wherever it is
// shown.
const NoteLabel = "sends your note to the agent as the prompt"

// Shell is the interactive command as one POSIX shell line, after
// `cd -- DIR &&` when the folder is known; "" when there is no command.
func (r Resume) Shell() string { return r.line(r.Argv) }

// NoteShell is the command that sends the note as the prompt, as one
// shell line; "" when there is none.
func (r Resume) NoteShell() string { return r.line(r.NoteArgv) }

func (r Resume) line(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	line := ShellLine(argv)
	if r.Dir != "" {
		line = "cd -- " + ShellWord(r.Dir) + " && " + line
	}
	return line
}

// ShellLine is words as one POSIX shell line, each quoted only where a
// shell needs it (ShellWord).
func ShellLine(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = ShellWord(w)
	}
	return strings.Join(quoted, " ")
}

// ShellWord is a word as a POSIX shell reads it back unchanged: as it is
// when every character is one no shell treats specially, else in single
// quotes, each single quote of the word closed, escaped and opened again.
func ShellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !plainShell(r) }) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// plainShell reports whether a character means itself in any shell word
// position (not a glob, quote, expansion, separator or blank).
func plainShell(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./:@%+=,", r)
}

// StreamFolder returns the folder a stream records its run in, cleaned,
// when it is fit to use: an absolute path, without NUL or line breaks,
// to a folder that exists. The stream is untrusted text; a resume and the
// editor use its folder only so.
func StreamFolder(p string) (string, bool) {
	if p == "" || !filepath.IsAbs(p) || strings.ContainsAny(p, "\x00\n\r") {
		return "", false
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return "", false
	}
	return filepath.Clean(p), true
}
