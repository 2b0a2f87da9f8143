package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
)

// TestGenerateStreams checks that the search corpus's copies stay valid
// streams of their harness, with fresh ids and varied words.
func TestGenerateStreams(t *testing.T) {
	t.Parallel()
	tmpl, _ := filepath.Glob("../../../../testdata/streams/*/*.jsonl")
	if len(tmpl) < 10 {
		t.Fatalf("%d templates", len(tmpl))
	}
	root := t.TempDir()
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	res, err := GenerateStreams(StreamSpec{Templates: tmpl, MaxTemplateBytes: 32 << 10, Root: root, Sessions: 60, PerWorkItem: 10,
		Days: 30, Now: now, Vocabulary: 500, Replace: 0.5, Seed: 7})
	if err != nil || res.Files != 60 {
		t.Fatalf("%+v %v", res, err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "*", "*.jsonl"))
	if len(files) != 60 {
		t.Fatalf("%d files", len(files))
	}
	words := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			if line := sc.Bytes(); len(bytes.TrimSpace(line)) > 0 && bytes.HasPrefix(line, []byte("{")) && !json.Valid(line) {
				t.Fatalf("%s: a copied line is not JSON: %.200s", f, line)
			}
		}
		sum, _, err := ingest.AnalyzeFile(f, summary.Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if sum.StartedAt != nil && (sum.StartedAt.After(now.Add(time.Hour)) || sum.StartedAt.Before(now.Add(-31*24*time.Hour))) {
			t.Errorf("%s starts at %s, outside the 30 days before %s", f, sum.StartedAt, now)
		}
		for _, c := range sum.ToolCalls {
			for _, w := range strings.Fields(c.InputSummary) {
				words[w]++
			}
		}
	}
	if len(words) < 100 {
		t.Errorf("only %d distinct words in the tool inputs", len(words))
	}
}
