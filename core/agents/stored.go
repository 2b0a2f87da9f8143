package agents

import (
	"strings"
)

// StoredSession is one session of a history that keeps its sessions in a
// database or a folder per session (History.Sessions): what the import
// keys it by, the change token that decides whether it is read again, and
// how to render it as the lines of its history's Parser.
type StoredSession struct {
	// Key names the session in the ingest index, as a file's path names
	// a file's session: the path of its container (the database file, the
	// task folder), "#", and the harness's own session id. It is stable
	// while the session lives, and no file has it as a path.
	Key string
	// ID is the harness's own session id: the session's name.
	ID string
	// Project is the working directory the harness recorded for the
	// session; "" when it recorded none.
	Project string
	// Size and MTime are the session's change token, in the ingest
	// index's columns: a count that grows with the session (its bytes or
	// its messages) and its last update in unix ms. A session whose
	// token is unchanged is not read again; a grown one is.
	Size, MTime int64
	// Lines renders the session as the lines Parser reads.
	Lines func() ([]byte, error)
}

// StoredKey is the key of a session inside a container (a database file,
// a task folder): container#id.
func StoredKey(container, id string) string { return container + "#" + id }

// SplitStoredKey is StoredKey's inverse: ok is false for a path that is no
// stored session's key (it has no '#' after its last slash, or an empty
// id).
func SplitStoredKey(key string) (container, id string, ok bool) {
	i := strings.LastIndexByte(key, '#')
	if i <= 0 || i == len(key)-1 || strings.ContainsRune(key[i:], '/') {
		return "", "", false
	}
	return key[:i], key[i+1:], true
}

// RenderStored renders the stored session a key names again, asking each
// history that keeps stored sessions: ok is false when none knows the key.
func RenderStored(key string) (lines []byte, ok bool, err error) {
	hs := table()
	for i := range hs {
		if h := hs[i].History; h != nil && h.Render != nil {
			if lines, ok, err := h.Render(key); ok {
				return lines, true, err
			}
		}
	}
	return nil, false, nil
}
