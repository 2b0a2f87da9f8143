package opencode

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
)

// TestUnchangedDatabaseIsNotCopied: an open inbox lists the histories
// every second; a database whose file and log did not change since its
// last listing is not copied again. The test proves it by putting bytes
// of the same size and modification time in its place: the listing still
// names the sessions of the first, and only a render reads the file (and
// fails). A database that changes is copied and listed again.
func TestUnchangedDatabaseIsNotCopied(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join(agentstest.Root, "testdata", "histories", "opencode", "home", ".local", "share", "opencode", "opencode.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "opencode.db")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	first, done, err := agents.DBSessions(path, opencodeDBList)
	if err != nil || len(first) == 0 {
		t.Fatalf("first listing: %d sessions, %v", len(first), err)
	}
	want, err := first[0].Lines()
	if err != nil || len(want) == 0 {
		t.Fatalf("render: %d bytes, %v", len(want), err)
	}
	done()

	// The second listing renders from a copy made only when asked.
	again, done, err := agents.DBSessions(path, opencodeDBList)
	if err != nil || len(again) != len(first) {
		t.Fatalf("second listing: %d sessions, %v", len(again), err)
	}
	if got, err := again[0].Lines(); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("render of a listing kept: %d bytes, %v; want the first render", len(got), err)
	}
	done()

	fi, _ := os.Stat(path)
	if err := os.WriteFile(path, bytes.Repeat([]byte{'x'}, len(src)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	kept, done, err := agents.DBSessions(path, opencodeDBList)
	if err != nil || len(kept) != len(first) || kept[0].Key != first[0].Key || kept[0].Size != first[0].Size {
		t.Fatalf("an unchanged stamp listed again: %d sessions, %v", len(kept), err)
	}
	if _, err := kept[0].Lines(); err == nil {
		t.Error("a render read no file: the listing kept a copy it should have removed")
	}
	done()

	// A changed stamp copies again: the garbage is no database.
	later := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if ss, _, err := agents.DBSessions(path, opencodeDBList); err == nil {
		t.Errorf("a changed database was not read again: %d sessions, no error", len(ss))
	}
}
