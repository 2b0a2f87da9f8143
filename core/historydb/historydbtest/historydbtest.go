// Package historydbtest builds, for tests, the SQLite databases agent CLIs
// keep their histories in, from the recorded material in
// testdata/histories: a harness's SQL script run into a new database
// (Crush, Goose), and cursor-agent's store.db rebuilt from the dump of a
// real chat (testdata/histories/cursor/store-db-sample.json). It writes
// only where a test tells it to, under the test's own folders.
package historydbtest

import (
	"crypto/md5"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite" // the driver of the databases it builds
)

// RunScript builds the database at path (and its folder) from the SQL
// script at script.
func RunScript(tb testing.TB, path, script string) {
	tb.Helper()
	b, err := os.ReadFile(script)
	if err != nil {
		tb.Fatal(err)
	}
	db := open(tb, path)
	defer db.Close()
	if _, err := db.Exec(string(b)); err != nil {
		tb.Fatal(err)
	}
}

// CursorWorkspace is the workspace the recorded cursor-agent chat ran in.
const CursorWorkspace = "/private/tmp"

// cursorSample is a chat cursor-agent kept, as its store.db holds it: the
// meta row's JSON, the root blob, and the message blobs the root names.
type cursorSample struct {
	Meta json.RawMessage `json:"meta"`
	Root struct {
		ID  string `json:"id"`
		Hex string `json:"hex"`
	} `json:"root"`
	Messages []struct {
		ID   string          `json:"id"`
		JSON json.RawMessage `json:"json"`
	} `json:"messages"`
}

// CursorChat writes the chat dumped in sample (store-db-sample.json) into
// home as cursor-agent lays it out (~/.cursor/chats/<md5 of the
// workspace>/<chat id>/store.db, tables meta and blobs), with its root cut
// after the first n messages (all of them for n < 0), and returns the
// database's path. Called again, it rewrites the root in place, as
// cursor-agent does when a chat grows. The meta row carries a
// blobEncryptionKey, as cursor-agent's does, for tests to check that no
// render shows it.
func CursorChat(tb testing.TB, home, sample string, n int) string {
	tb.Helper()
	var s cursorSample
	b, err := os.ReadFile(sample)
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	if err != nil {
		tb.Fatal(err)
	}
	var meta map[string]any
	if err := json.Unmarshal(s.Meta, &meta); err != nil {
		tb.Fatal(err)
	}
	id, _ := meta["agentId"].(string)
	ws := md5.Sum([]byte(CursorWorkspace))
	path := filepath.Join(home, ".cursor", "chats", hex.EncodeToString(ws[:]), id, "store.db")
	db := open(tb, path)
	defer db.Close()
	exec := func(q string, args ...any) {
		tb.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			tb.Fatal(err)
		}
	}
	exec(`CREATE TABLE IF NOT EXISTS blobs (id TEXT PRIMARY KEY, data BLOB)`)
	exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)`)
	root, err := hex.DecodeString(s.Root.Hex)
	if err != nil {
		tb.Fatal(err)
	}
	rootID := s.Root.ID
	if n >= 0 {
		// A root naming only the first n messages: each is field 1, 32
		// bytes long (0x0a 0x20 id), at the root's start.
		root = append(root[:0:0], root[:34*n]...)
		rootID = hex.EncodeToString(root[:32]) + "-cut"
	}
	exec(`INSERT OR REPLACE INTO blobs (id, data) VALUES (?, ?)`, rootID, root)
	for _, m := range s.Messages {
		exec(`INSERT OR REPLACE INTO blobs (id, data) VALUES (?, ?)`, m.ID, []byte(m.JSON))
	}
	meta["latestRootBlobId"] = rootID
	meta["blobEncryptionKey"] = "a-secret-the-render-drops"
	mb, _ := json.Marshal(meta)
	exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('0', ?)`, hex.EncodeToString(mb))
	return path
}

// open opens (creating it and its folder) the database at path.
func open(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		tb.Fatal(err)
	}
	return db
}
