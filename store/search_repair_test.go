package store

import (
	"context"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/review"
)

// TestRepairSearchDocs stores documents as an earlier sift could, with
// parts placed at calls named by another file's raw line text, and
// checks that the repair the migration marks builds each such document
// again as a fresh import does (its prompts kept, its note added), that
// the stray text is no longer stored, that documents without a wrong call
// are left alone, and that it runs once.
func TestRepairSearchDocs(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "it writes SQLite's stored documents by hand")
	ctx := context.Background()
	root := fixtureRoot(t)
	s, fresh := newTestStore(t), newTestStore(t)
	mustImport(t, s, root)
	mustImport(t, fresh, root)
	// Break every document that places a part at a call, and note one.
	broken := 0
	var noted review.SessionKey
	full, err := pageRows(s.ListSessions(ctx, review.Query{Full: true}))
	if err != nil {
		t.Fatal(err)
	}
	for _, sess := range full {
		k := sess.Key()
		var doc []byte
		if err := s.r.QueryRowContext(ctx, `SELECT t.doc FROM search_docs d JOIN search_text t ON t.id = d.id
			WHERE d.work_item_id = ? AND d.file_name = ?`, k.WorkItemID, k.FileName).Scan(&doc); err != nil {
			t.Fatal(err)
		}
		st, err := unpackSearchText(doc)
		if err != nil {
			t.Fatal(err)
		}
		_, parts, err := loadSearchText(doc)
		if err != nil {
			t.Fatal(err)
		}
		changed := false
		for i := range parts {
			for j := range parts[i].At {
				if parts[i].At[j].CallID != "" {
					parts[i].At[j].CallID = "export QUOKKA_TOKEN=zx81"
					changed = true
				}
			}
		}
		if !changed {
			continue
		}
		if broken++; broken == 1 {
			noted = k
		}
		st.parts, _ = json.Marshal(parts)
		if _, err := s.w.ExecContext(ctx, `UPDATE search_text SET doc = ? WHERE id = (SELECT id FROM search_docs
			WHERE work_item_id = ? AND file_name = ?)`, packSearchText(st), k.WorkItemID, k.FileName); err != nil {
			t.Fatal(err)
		}
	}
	if broken < 5 {
		t.Fatalf("%d documents place a part at a call: a weak test", broken)
	}
	for _, st := range []*Store{s, fresh} {
		if err := st.Decide(ctx, review.Decision{Session: noted, Kind: review.Reviewed, Note: "wombat"}); err != nil {
			t.Fatal(err)
		}
	}
	before := storedDocs(t, s)

	if _, err := s.w.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, '1')`, metaSearchRepair); err != nil {
		t.Fatal(err)
	}
	n, err := s.repairSearchDocs(ctx)
	if err != nil || n != broken {
		t.Fatalf("repaired %d documents (%v), want %d", n, err, broken)
	}
	after, want := storedDocs(t, s), storedDocs(t, fresh)
	if len(after) < broken || len(after) != len(want) {
		t.Fatalf("%d documents after the repair, %d fresh", len(after), len(want))
	}
	for k, doc := range after {
		if !slices.Equal(doc, want[k]) {
			t.Errorf("%s: the repaired document differs from a fresh import's", k)
		}
		if slices.Equal(doc, before[k]) != slices.Equal(before[k], want[k]) {
			t.Errorf("%s: changed though it was right, or not changed though it was wrong", k)
		}
	}
	for k, doc := range after {
		if st, err := unpackSearchText(doc); err != nil || strings.Contains(string(st.parts), "QUOKKA") {
			t.Errorf("%s: the stray call text is still stored (%v)", k, err)
		}
	}
	if got := findIn(t, s, review.Query{Search: "wombat", Count: true}); !slices.Equal(got, []string{noted.String()}) {
		t.Errorf("the note after the repair: %v", got)
	}
	if n, err := s.repairSearchDocs(ctx); err != nil || n != 0 {
		t.Errorf("a second repair built %d documents again (%v)", n, err)
	}
}

// TestRepairPassesAMalformedDocument: a stored document that cannot be
// read (a damaged file) is left as it is, and the repair goes on and
// ends, rather than failing every search after it.
func TestRepairPassesAMalformedDocument(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "it writes SQLite's stored documents by hand")
	ctx := context.Background()
	s := newTestStore(t)
	mustImport(t, s, fixtureRoot(t))
	// Not a document: its triggers cannot read the old one's words, so
	// it is written past them, as a damaged file would hold it.
	for _, q := range []string{
		`DROP TRIGGER search_text_changed`,
		`UPDATE search_text SET doc = x'00ff00' WHERE id = (SELECT MIN(id) FROM search_text)`,
	} {
		if _, err := s.w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.w.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, '1')`, metaSearchRepair); err != nil {
		t.Fatal(err)
	}
	if n, err := s.IndexMissing(ctx); err != nil || n != 0 {
		t.Fatalf("IndexMissing: %d, %v; want 0 and no error", n, err)
	}
	var mark int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM meta WHERE key = ?`, metaSearchRepair).Scan(&mark); err != nil || mark != 0 {
		t.Errorf("the repair's mark after it ran: %d (%v)", mark, err)
	}
	if got := findIn(t, s, review.Query{Search: "claude", Count: true}); len(got) == 0 {
		t.Error("search finds nothing after the repair")
	}
}
