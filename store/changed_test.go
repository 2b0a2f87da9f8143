package store

import (
	"context"
	"testing"

	"github.com/agentsift/sift/core/review"
)

// TestChangedSeesOtherWriters: the data version one store reads changes
// when another store on the same database (another process) commits a
// decision, and stays while nobody writes.
func TestChangedSeesOtherWriters(t *testing.T) {
	t.Parallel()
	db := testDB(t)
	a, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	writeFakes(t, a, []fake{{wi: "wi", file: "a.jsonl", dur: 1}})
	b, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	v1, err := a.Changed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !onPostgres() {
		// The server's other databases may write meanwhile on
		// PostgreSQL; a SQLite file has no other writer.
		if v, err := a.Changed(ctx); err != nil || v != v1 {
			t.Fatalf("version moved without a write: %d then %d, %v", v1, v, err)
		}
	}
	if err := b.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"},
		Kind: review.Reviewed, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	v2, err := a.Changed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v2 == v1 {
		t.Fatalf("another store's decision left the version at %d", v1)
	}
}
