package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/ingest"
)

// TestImportRowsDoNotDependOnOtherFiles imports the recorded streams in
// one import, two readers ahead of a writer that commits every four
// sessions and makes their search documents, and each stream alone, and checks that every stored value of
// a session is the same both ways. A reader reuses its buffers for its
// next file, and the summarizer its blocks: a value the writer stores
// that still points into them is another file's text by the time it is
// written (a search document's call ids once were, raw line text and
// all).
func TestImportRowsDoNotDependOnOtherFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	files := fixtureFiles(t)
	together, alone := newTestStore(t), newTestStore(t)
	// The writer makes the search documents, as it does those with
	// notes: what it reads of a session is read the latest (and the
	// copies of the summary's columns are read back from it, where
	// the readers give them to the other store's writer).
	together.unprepared = true
	root := t.TempDir()
	var roots []string
	mtime := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	for i, f := range files {
		rel := filepath.Join([]string{"ENG-1", "OPS-2", "ENG-3"}[i%3], filepath.Base(filepath.Dir(f))+"-"+filepath.Base(f))
		own := t.TempDir()
		for _, dst := range []string{filepath.Join(root, rel), filepath.Join(own, rel)} {
			copyFile(t, f, dst)
			// The same time on both copies: a session's activity is
			// its file's when its stream has none.
			if err := os.Chtimes(dst, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
		roots = append(roots, own)
	}
	opt := tiered(ingest.Options{Workers: 2, BatchSize: 4})
	if res, err := ingest.Import(ctx, together, []string{root}, opt, nil); err != nil || len(res.Failed) > 0 {
		t.Fatalf("import: %v %v", err, res.Failed)
	}
	for _, r := range roots {
		if res, err := ingest.Import(ctx, alone, []string{r}, opt, nil); err != nil || len(res.Failed) > 0 {
			t.Fatalf("import %s: %v %v", r, err, res.Failed)
		}
	}
	searchDocsSQL := `SELECT d.work_item_id, d.file_name, d.agent_kind, d.flags, d.outcome, d.activity_at, d.estimated_usd, t.doc
		FROM search_docs d JOIN search_text t ON t.id = d.id ORDER BY 1, 2`
	if onPostgres() {
		searchDocsSQL = `SELECT d.work_item_id, d.file_name, f.body, f.parts FROM search_docs d JOIN search_fts f ON f.rowid = d.id ORDER BY 1, 2`
	}
	for _, q := range []string{
		`SELECT work_item_id, file_name, agent_kind, phase, iteration, total_duration_ms, time_to_first_token_ms,
			input_tokens, output_tokens, cached_input_tokens, estimated_usd, tool_calls_json, stalls_json,
			final_assistant_message, session_id, model, cost_source, outcome, started_at, ended_at, thinking_ms,
			executing_ms, total_tokens, tool_call_count, stall_count, error_count, approval_count, flags, flagged,
			line_count, byte_count, brief_json, turns_json, review_state, triage_rank, new_since
			FROM agent_stream_summaries ORDER BY 1, 2`,
		`SELECT work_item_id, file_name, event_count, events_json FROM review_events ORDER BY 1, 2`,
		`SELECT work_item_id, file_name, tool_names FROM session_filter ORDER BY 1, 2`,
		searchDocsSQL,
	} {
		a, b := dumpRows(t, together, q), dumpRows(t, alone, q)
		if len(a) < len(files)/2 && !strings.Contains(q, "review_events") {
			t.Fatalf("%d rows: a weak test\n%s", len(a), q)
		}
		if len(a) != len(b) {
			t.Fatalf("%d rows together, %d alone\n%s", len(a), len(b), q)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Errorf("a row differs when imported with the other files:\ntogether %.300s\nalone    %.300s", a[i], b[i])
			}
		}
	}
}

// dumpRows returns a query's rows, each as one line of its values.
func dumpRows(t *testing.T, s *Store, q string) []string {
	t.Helper()
	rows, err := s.r.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		line := make([]string, len(vals))
		for i, v := range vals {
			switch v := v.(type) {
			case []byte:
				line[i] = fmt.Sprintf("%q", v)
			case string:
				line[i] = fmt.Sprintf("%q", v)
			default:
				line[i] = fmt.Sprint(v)
			}
		}
		out = append(out, strings.Join(line, " "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return slices.Clip(out)
}
