package tui

import (
	"errors"
	"io/fs"
	"strings"
)

// streamProblem says in words why a session's stream file could not be
// read again, where its content would be shown: gone (deleted, moved),
// not readable, or refused; what the summary kept is still shown. The
// session's header names the file.
func streamProblem(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "gone from disk: the stream file was deleted or moved since its import; only what the summary kept is shown"
	case errors.Is(err, fs.ErrPermission):
		return "the stream file cannot be read: permission denied"
	}
	return "the stream file cannot be read: " + strings.TrimPrefix(err.Error(), "open stream: ")
}
