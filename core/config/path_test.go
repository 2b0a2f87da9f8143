package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/layout"
)

// TestDefaultPathIsAbsoluteData pins #2: the default logs folder was the
// relative logs/agents, so plain `sift` in any folder holding logs/agents
// swept it. It is now under the data folder the store uses.
func TestDefaultPathIsAbsoluteData(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	if got := Default().Path; got != filepath.Join(data, "sift", "logs") {
		t.Errorf("Default().Path = %q with XDG_DATA_HOME set", got)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, xdg := range []string{"", "relative/data"} { // a relative XDG value is ignored
		t.Setenv("XDG_DATA_HOME", xdg)
		if got := Default().Path; got != filepath.Join(home, ".local", "share", "sift", "logs") {
			t.Errorf("Default().Path = %q with XDG_DATA_HOME=%q", got, xdg)
		}
	}
	c, err := Parse(nil)
	if err != nil || !filepath.IsAbs(c.Path) {
		t.Errorf("Parse(nil).Path = %q, %v", c.Path, err)
	}
}

// TestRelativePathResolvesAgainstTheFile checks that a relative Path in a
// configuration file means a folder next to the file, wherever sift runs.
func TestRelativePathResolvesAgainstTheFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(t.TempDir())
	p := filepath.Join(dir, "conf", "config.yaml")
	for body, want := range map[string]string{
		"Path: streams\n":        filepath.Join(dir, "conf", "streams"),
		"Path: ../streams\n":     filepath.Join(dir, "streams"),
		"Path: ./a/b/\n":         filepath.Join(dir, "conf", "a", "b"),
		"Path: /srv/streams\n":   "/srv/streams",
		"Path: /srv//streams/\n": "/srv/streams",
	} {
		writeFile(t, p, body)
		c, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if c.Path != want {
			t.Errorf("%q: Path = %q, want %q", strings.TrimSpace(body), c.Path, want)
		}
	}
	// A relative --config names a file relative to the working folder;
	// its Path is still next to it, and absolute.
	t.Chdir(dir)
	writeFile(t, p, "Path: /srv/streams\n")
	c, err := Load(filepath.Join("conf", "config.yaml"))
	if err != nil || c.Path != "/srv/streams" {
		t.Fatalf("Load(relative) = %q, %v", c.Path, err)
	}
	writeFile(t, p, "Path: streams\n")
	c, err = Load(filepath.Join("conf", "config.yaml"))
	if err != nil || c.Path != filepath.Join(dir, "conf", "streams") {
		t.Fatalf("Load(relative) = %q, %v", c.Path, err)
	}
	// So are the project folders whose histories sift reads.
	writeFile(t, p, "Projects: [app, /src/tool/]\n")
	c, err = Load(filepath.Join("conf", "config.yaml"))
	if err != nil || !slices.Equal(c.Projects, []string{filepath.Join(dir, "conf", "app"), "/src/tool"}) {
		t.Fatalf("Projects = %q, %v", c.Projects, err)
	}
}

// TestCheckWritableMarksWhatItCreates checks that the capture root
// CheckDirWritable creates is marked as sift's own, and that an existing
// folder is not.
func TestCheckWritableMarksWhatItCreates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new", "logs")
	if err := CheckDirWritable(fresh); err != nil {
		t.Fatal(err)
	}
	if ok, _ := layout.Marked(fresh); !ok {
		t.Error("a logs folder CheckDirWritable created is not marked")
	}
	existing := filepath.Join(dir, "existing")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := CheckDirWritable(existing); err != nil {
		t.Fatal(err)
	}
	if ok, _ := layout.Marked(existing); ok {
		t.Error("CheckDirWritable marked a folder it did not create")
	}
}
