package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// TestPreparedDocs imports the fixtures twice, once with the search
// documents prepared by the import's readers and once made by its writer
// after the readers have moved on to other files, and checks that both
// store the same documents, tags and places and all, that every call a
// document names is one of its session's, and that both find the same
// sessions; then that a session with a note, whose prepared document does
// not hold it, is stored with the note by a re-import.
func TestPreparedDocs(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "PostgreSQL stores the prepared body and parts as they are")
	ctx := context.Background()
	root := fixtureRoot(t)
	prepared, made := newTestStore(t), newTestStore(t)
	made.unprepared = true
	mustImport(t, prepared, root)
	mustImport(t, made, root)
	a, b := storedDocs(t, prepared), storedDocs(t, made)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d documents prepared, %d made", len(a), len(b))
	}
	full, err := pageRows(made.ListSessions(ctx, review.Query{Full: true}))
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, sess := range full {
		k := sess.Key().String()
		if !slices.Equal(a[k], b[k]) {
			t.Errorf("%s: the prepared document differs from the writer's", k)
		}
		doc, err := unpackSearchText(b[k])
		if err != nil {
			t.Fatal(err)
		}
		_, parts, err := loadSearchText(b[k])
		if err != nil {
			t.Fatalf("%s: %v (%d bytes of parts)", k, err, len(doc.parts))
		}
		calls := map[string]bool{}
		for _, c := range sess.Summary.ToolCalls {
			calls[c.ID] = true
		}
		for _, p := range parts {
			for _, at := range p.At {
				if at.CallID != "" && !calls[at.CallID] {
					t.Errorf("%s: a %s part names call %q, which the session has not", k, p.Where, at.CallID)
				}
				if at.CallID != "" {
					named++
				}
			}
		}
	}
	if named == 0 {
		t.Fatal("no part names a call: a weak test")
	}
	for _, q := range []string{"agent:claude read", "outcome:failed", "bash -test", "error"} {
		q := review.Query{Search: q, Count: true}
		if x, y := findIn(t, prepared, q), findIn(t, made, q); len(x) == 0 || !slices.Equal(x, y) {
			t.Errorf("%q finds %v prepared, %v made", q.Search, x, y)
		}
	}

	k := full[0].Key()
	if err := prepared.Decide(ctx, review.Decision{Session: k, Kind: review.NeedsFollowup, Note: "wombat-flaky"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Import(ctx, prepared, []string{root}, tiered(ingest.Options{Force: true}), nil); err != nil {
		t.Fatal(err)
	}
	if got := findIn(t, prepared, review.Query{Search: "wombat", Count: true}); !slices.Equal(got, []string{k.String()}) {
		t.Errorf("the note after a re-import: %v", got)
	}
	ms, err := prepared.Matches(ctx, k, review.Query{Search: "wombat"}, 0)
	if err != nil || len(ms) != 1 || ms[0].Where != search.InNote {
		t.Errorf("the note's match after a re-import: %+v, %v", ms, err)
	}
}

// fixtureRoot returns a folder of the recorded streams, in two work items.
func fixtureRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for i, f := range fixtureFiles(t) {
		copyFile(t, f, filepath.Join(root, []string{"ENG-1", "OPS-2"}[i%2], filepath.Base(filepath.Dir(f))+"-"+filepath.Base(f)))
	}
	return root
}

// storedDocs returns the stored search documents of a SQLite store, by
// session.
func storedDocs(t *testing.T, s *Store) map[string][]byte {
	t.Helper()
	rows, err := s.r.QueryContext(context.Background(), `SELECT d.work_item_id || '/' || d.file_name, t.doc
		FROM search_docs d JOIN search_text t ON t.id = d.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][]byte{}
	for rows.Next() {
		var k string
		var doc []byte
		if err := rows.Scan(&k, &doc); err != nil {
			t.Fatal(err)
		}
		out[k] = doc
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
