package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportOpensOnlyStreamFiles is Hardening II item 3: a session row's
// path is data (a teammate's row in a shared database), so an export
// opens it only when it is a regular file inside the logs folder or an
// agent history folder, through no link that leads out; otherwise it
// exports what the store kept and says why.
func TestExportOpensOnlyStreamFiles(t *testing.T) {
	dir := t.TempDir()
	isolate(t, dir)
	src := recordedStream(t)
	db, logs := importStreams(t, dir, map[string]string{"wi-1/work-1-a1b2c3.jsonl": src})
	// A private file outside sift's folders, holding a stream's lines.
	private := filepath.Join(dir, "private.jsonl")
	marker := strings.ReplaceAll(src, "hello.txt", "PRIVATE-MARKER.txt")
	os.WriteFile(private, []byte(marker), 0o600)
	link := filepath.Join(logs, "wi-1", "link.jsonl")
	if err := os.Symlink(private, link); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for path, why := range map[string]string{
		private:     "not inside the logs folder",
		link:        "a link that leads out",
		"/dev/zero": "not inside the logs folder",
	} {
		if _, err := raw.Exec(`UPDATE agent_stream_summaries SET path = ?`, path); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"atif", "acp"} {
			out, errOut, code := siftCmd(t, "export", "wi-1/work-1-a1b2c3.jsonl", "--format", format, "--db", db, "--logs", logs)
			if (format == "atif" && code != 0) || strings.Contains(out+errOut, "PRIVATE-MARKER") {
				t.Fatalf("export --format %s of a row naming %s: %d %q\n%s", format, path, code, errOut, out)
			}
			if format == "atif" && !strings.Contains(out, why) {
				t.Errorf("the export of a row naming %s does not say %q:\n%s", path, why, out)
			}
		}
	}
	// The logs folder holding /dev/zero's kind of file: not a regular one.
	fifo := filepath.Join(logs, "wi-1", "fifo.jsonl")
	if err := mkfifo(fifo); err == nil {
		raw.Exec(`UPDATE agent_stream_summaries SET path = ?`, fifo)
		out, _, code := siftCmd(t, "export", "wi-1/work-1-a1b2c3.jsonl", "--db", db, "--logs", logs)
		if code != 0 || !strings.Contains(out, "not a regular file") {
			t.Fatalf("export of a row naming a FIFO: %d\n%s", code, out)
		}
	}
}
