package main

import (
	"os"
	"path/filepath"
	"testing"
)

// recordedStream is a recorded Claude Code run (a Write call denied
// permission), the stream the command tests change and import.
func recordedStream(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../../testdata/streams/claude/vincent-2.1.226-permission-denied-tool-error.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// importStreams writes each stream at its key (work item/file name) under
// a logs folder in dir and imports it into a new database there; it
// returns the database and the logs folder.
func importStreams(t *testing.T, dir string, streams map[string]string) (db, logs string) {
	t.Helper()
	logs = filepath.Join(dir, "logs")
	for key, stream := range streams {
		p := filepath.Join(logs, key)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(stream), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	db = filepath.Join(dir, "sift.db")
	if out, errOut, code := siftCmd(t, "import", "--db", db, "--logs", logs); code != 0 {
		t.Fatalf("import: %q %q", out, errOut)
	}
	return db, logs
}
