package capture

import (
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/layout"
)

// TestCreateFileMatchesLayout keeps the writer and the matcher together:
// every file CreateFile writes is one the sweep recognises.
func TestCreateFileMatchesLayout(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, phase := range []string{"work", "merge", "audit-llm-security:llm-review", "rework"} {
		f, err := CreateFile(root, "ENG-7", phase, 3)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		rel, _ := filepath.Rel(root, f.Name())
		if !layout.IsLayoutPath(rel) {
			t.Errorf("CreateFile wrote %s, which the layout does not match", rel)
		}
	}
}

func TestCreateFileMarksTheRootItCreates(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root := filepath.Join(base, "new", "logs")
	f, err := CreateFile(root, "wi", "work", 1)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if ok, _ := layout.Marked(root); !ok {
		t.Error("CreateFile created the logs root without marking it")
	}
	if ok, _ := layout.Marked(filepath.Join(root, "wi")); ok {
		t.Error("CreateFile marked a work item folder")
	}
	f, err = CreateFile(base, "wi", "work", 1) // base existed: not sift's
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if ok, _ := layout.Marked(base); ok {
		t.Error("CreateFile marked a folder it did not create")
	}
}
