package app

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/corpus"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/retention"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// reportCorpusDB returns the database of the report corpus: 20,000
// sessions over the 30 days before its generation (the search corpus's
// streams and vocabulary, searchCorpus, at a fifth of its size), imported
// as `sift import` does, built once in the temporary directory and
// reused (it takes minutes), and the time it was generated at.
func reportCorpusDB(t *testing.T) (string, time.Time) {
	t.Helper()
	dir := filepath.Join(os.TempDir(), "sift-report-corpus-20k-v1")
	db, stamp := filepath.Join(dir, "sift.db"), filepath.Join(dir, "generated")
	tmpl, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "testdata", "streams", "*", "*.jsonl"))
	demo, _ := filepath.Glob(filepath.Join("..", "..", "demo", "streams", "*", "*.jsonl"))
	if len(tmpl) == 0 || len(demo) == 0 {
		t.Fatalf("no stream templates: %d recorded, %d of the demo", len(tmpl), len(demo))
	}
	// The search corpus's streams and vocabulary (cmd/sift's
	// searchCorpus), at a fifth of its size.
	spec := corpus.StreamSpec{Templates: append(tmpl, demo...), MaxTemplateBytes: 64 << 10, Sessions: 20_000, PerWorkItem: 20,
		Days: 30, Now: time.Now(), Vocabulary: 20_000, Replace: 1.0 / 3, Seed: 17, Root: filepath.Join(dir, "logs")}
	if b, err := os.ReadFile(stamp); err == nil {
		if at, err := time.Parse(time.RFC3339, string(b)); err == nil {
			if st, err := store.Open(db); err == nil {
				n, _ := st.CountSessions(context.Background(), review.Query{})
				st.Close()
				if n == spec.Sessions {
					return db, at
				}
			}
		}
	}
	os.RemoveAll(dir)
	start := time.Now()
	if _, err := corpus.GenerateStreams(spec); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := ingest.Import(context.Background(), st, []string{spec.Root}, ingest.Options{KeepEvents: retention.Policy{}.KeepsEvents}, nil)
	st.Close()
	if err != nil || imp.Sessions != spec.Sessions {
		t.Fatalf("import: %v (%d sessions, %d failed)", err, imp.Sessions, len(imp.Failed))
	}
	t.Logf("report corpus generated and imported in %s", time.Since(start).Round(time.Second))
	os.RemoveAll(spec.Root)
	if err := os.WriteFile(stamp, []byte(spec.Now.Format(time.RFC3339)), 0o644); err != nil {
		t.Fatal(err)
	}
	return db, spec.Now
}

// TestReportIsOnePageOn20000Sessions: `sift report --since 30d` (as of
// its making) on the report corpus (20,000 sessions of the 30 days before it was generated)
// is at most 250 lines of Markdown, and still counts every run and says
// how many it leaves out. Generating and importing the corpus takes
// minutes the first time (it is kept in $TMPDIR), so -short skips it.
func TestReportIsOnePageOn20000Sessions(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and imports 20,000 sessions")
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "config")) // no user configuration
	db, generated := reportCorpusDB(t)
	// --since 30d as of when the corpus was made, in minutes: the same
	// window however old the kept corpus is.
	since := fmt.Sprintf("%dm", int(math.Ceil((time.Since(generated) + 30*24*time.Hour).Minutes())))
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, err := time.ParseDuration(since)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var b strings.Builder
	if err := WriteReport(context.Background(), st, start, start.Add(-d), "md", &b); err != nil {
		t.Fatalf("report: %v", err)
	}
	took := time.Since(start)
	out := b.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	t.Logf("sift report --since %s: %d lines, %d bytes, in %s", since, len(lines), len(out), took.Round(time.Millisecond))
	if len(lines) > 250 {
		t.Errorf("the report is %d lines, want at most 250:\n%s", len(lines), out)
	}
	if len(lines) < 3 || !strings.HasPrefix(lines[2], "20000 runs since") {
		t.Errorf("the top line does not count the 20,000 runs:\n%s", out)
	}
	for _, want := range []string{"more runs left to review", "And 990 more, cheaper work items."} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not say %q:\n%s", want, out)
		}
	}
	if os.Getenv("SIFT_REPORT_SHOW") != "" {
		t.Log("\n" + out)
	}
}
