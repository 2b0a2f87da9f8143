package layout

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestParseStreamName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		phase string
		iter  int
		ok    bool
	}{
		{"work-1-a1b2c3.jsonl", "work", 1, true},
		{"rework-12-000000.jsonl", "rework", 12, true},
		{"audit-llm-security:llm-review-3-d4e5f6.jsonl", "audit-llm-security:llm-review", 3, true},
		{"work-1-a1b2c3d4e5f6.jsonl", "work", 1, true}, // a longer suffix
		{"work-1-a1b2c.jsonl", "", 0, false},           // five digits
		{"work-1-A1B2C3.jsonl", "", 0, false},          // upper case
		{"work-1-a1b2g3.jsonl", "", 0, false},          // not hex
		{"work-1-a1b2c3.jsonl.bak", "", 0, false},
		{"work-1-a1b2c3.JSONL", "", 0, false},
		{"work-1-a1b2c3.log", "", 0, false},
		{"work-1-a1b2c3.txt", "", 0, false},
		{"work-1-a1b2c3.ndjson", "", 0, false},
		{"work-a1b2c3.jsonl", "", 0, false}, // no iteration
		{"-1-a1b2c3.jsonl", "", 0, false},   // no phase
		{"work-+1-a1b2c3.jsonl", "", 0, false},
		{"work--1-a1b2c3.jsonl", "work-", 1, true}, // what CreateFile names phase "work-"
		{"work-x-a1b2c3.jsonl", "", 0, false},
		{"work-1234567890-a1b2c3.jsonl", "", 0, false}, // iteration too long
		{".work-1-a1b2c3.jsonl", "", 0, false},         // hidden
		{"work-1-a1b2c3 .jsonl", "", 0, false},
		{"a/work-1-a1b2c3.jsonl", "", 0, false},
		{"work-1-.jsonl", "", 0, false},
		{".jsonl", "", 0, false},
		{"", "", 0, false},
	} {
		phase, iter, ok := ParseStreamName(tc.name)
		if ok != tc.ok || phase != tc.phase || iter != tc.iter {
			t.Errorf("ParseStreamName(%q) = %q, %d, %v; want %q, %d, %v", tc.name, phase, iter, ok, tc.phase, tc.iter, tc.ok)
		}
	}
}

func TestIsLayoutPath(t *testing.T) {
	t.Parallel()
	for rel, want := range map[string]bool{
		"ENG-1/work-1-a1b2c3.jsonl":          true,
		"wi/rework-2-c0ffee00.jsonl":         true,
		"work-1-a1b2c3.jsonl":                false, // depth 1
		"a/b/work-1-a1b2c3.jsonl":            false, // depth 3
		".git/work-1-a1b2c3.jsonl":           false, // hidden folder
		".x/work-1-a1b2c3.jsonl":             false,
		"../wi/work-1-a1b2c3.jsonl":          false,
		"./work-1-a1b2c3.jsonl":              false,
		"wi/notes.txt":                       false,
		"wi/work-1-a1b2c3.jsonl/":            false,
		"/wi/work-1-a1b2c3.jsonl":            false,
		"wi/" + MarkerName:                   false,
		"wi/sub/work-1-a1b2c3.jsonl":         false,
		"wi/.work-1-a1b2c3.jsonl":            false,
		"wi/work-1-a1b2c3.jsonl.swp":         false,
		"wi/audit-llm-x:y-2-abcdef.jsonl":    true,
		"wi\x00/work-1-a1b2c3.jsonl":         false,
		"wi/work-1-a1b2c3.jsonl\x00":         false,
		"wi/work-1-a1b2c3.jsonl/x.jsonl":     false,
		"wi//work-1-a1b2c3.jsonl":            false,
		"wi/work-01-a1b2c3.jsonl":            true, // digits, as Atoi reads them
		"wi/work-1-a1b2c3-a1b2c3.jsonl":      false,
		"wi/work-1-a1b2c3.jsonl.jsonl":       false,
		"wi/WORK-1-a1b2c3.jsonl":             true, // the phase is free text
		"wi/phase with space-1-a1b2c3.jsonl": true,
	} {
		if got := IsLayoutPath(rel); got != want {
			t.Errorf("IsLayoutPath(%q) = %v, want %v", rel, got, want)
		}
	}
}

func TestMakeRootMarksOnlyWhatItCreates(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	fresh := filepath.Join(base, "a", "b", "logs")
	created, err := MakeRoot(fresh)
	if err != nil || !created {
		t.Fatalf("MakeRoot(new) = %v, %v", created, err)
	}
	if ok, _ := Marked(fresh); !ok {
		t.Error("a folder sift created is not marked")
	}
	if ok, _ := Marked(filepath.Dir(fresh)); ok {
		t.Error("a parent folder was marked")
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("logs folder mode %v, %v", fi.Mode(), err)
	}
	existing := filepath.Join(base, "existing")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	if created, err := MakeRoot(existing); err != nil || created {
		t.Fatalf("MakeRoot(existing) = %v, %v", created, err)
	}
	if ok, _ := Marked(existing); ok {
		t.Error("an existing folder was marked by MakeRoot")
	}
	if err := CheckSweepRoot(existing); !isProblem(err, RootUnmarked) {
		t.Errorf("CheckSweepRoot(unmarked) = %v", err)
	}
	if already, err := MarkRoot(existing); err != nil || already {
		t.Fatalf("MarkRoot = %v, %v", already, err)
	}
	if already, err := MarkRoot(existing); err != nil || !already {
		t.Fatalf("MarkRoot again = %v, %v", already, err)
	}
	if err := CheckSweepRoot(existing); err != nil {
		t.Errorf("CheckSweepRoot(marked) = %v", err)
	}
}

func isProblem(err error, p RootProblem) bool {
	var re *RootError
	return errors.As(err, &re) && re.Problem == p
}

func TestCheckSweepRootRefuses(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home", "me")
	t.Setenv("HOME", home)
	mk := func(p string) string {
		t.Helper()
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := writeMarker(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk(home)
	mk(filepath.Dir(home))
	real := mk(filepath.Join(base, "real"))
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	homeLink := filepath.Join(base, "homelink")
	if err := os.Symlink(home, homeLink); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	fakeMarker := filepath.Join(base, "fake")
	if err := os.Mkdir(fakeMarker, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(real, MarkerName), filepath.Join(fakeMarker, MarkerName)); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]RootProblem{
		"/":                          RootFileSystem,
		"//":                         RootFileSystem,
		"relative/logs":              RootNotAbsolute,
		home:                         RootHome,
		home + "/":                   RootHome,
		filepath.Dir(home):           RootHome,
		filepath.Join(home, ".."):    RootHome,
		link:                         RootSymlink,
		filepath.Join(homeLink, "."): RootSymlink,
		file:                         RootNotDir,
		fakeMarker:                   RootUnmarked,
	} {
		if err := CheckSweepRoot(dir); !isProblem(err, want) {
			t.Errorf("CheckSweepRoot(%q) = %v, want problem %d", dir, err, want)
		}
		if want != RootUnmarked {
			if _, err := MarkRoot(dir); !isProblem(err, want) {
				t.Errorf("MarkRoot(%q) = %v, want problem %d", dir, err, want)
			}
		}
	}
	if err := CheckSweepRoot(filepath.Join(base, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing root: %v", err)
	}
	if err := CheckSweepRoot(real); err != nil {
		t.Errorf("a marked folder is refused: %v", err)
	}
	if err := CheckSweepRoot(mk(filepath.Join(home, "logs"))); err != nil {
		t.Errorf("a marked folder inside home is refused: %v", err)
	}
}
