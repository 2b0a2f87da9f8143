package store

import (
	"context"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
)

// TestChangedSeesOtherWriters: the data version one store reads changes
// when another store on the same database (another process) commits a
// decision, and stays while nobody writes; WaitChanged returns the new
// version.
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
	// On PostgreSQL the change is pushed (pg_feed.go): it reaches the
	// other store a moment after the commit, and WaitChanged waits for
	// it; on SQLite it is there at once.
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	v2, err := a.WaitChanged(wctx, v1)
	if err != nil {
		t.Fatal(err)
	}
	if v2 == v1 {
		t.Fatalf("another store's decision left the version at %d", v1)
	}
}
