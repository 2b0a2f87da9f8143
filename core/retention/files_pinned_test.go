package retention_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentsift/sift/core/retention"
)

// TestSweepPassesOverPinnedFiles: a pinned file (an open follow-up's) is
// deleted neither by its age nor by the size cap, which passes over it
// to the next oldest; a dry run lists what would go and deletes nothing.
func TestSweepPassesOverPinnedFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := markedRoot(t)
	day := 24 * time.Hour
	pinnedOld := logFileAt(t, root, "wi-1", "work-1-000001.jsonl", 600<<10, 400*day)
	old := logFileAt(t, root, "wi-1", "work-1-000002.jsonl", 100, 20*day)
	big := logFileAt(t, root, "wi-2", "work-1-000003.jsonl", 600<<10, 3*day)
	fresh := logFileAt(t, root, "wi-2", "work-1-000004.jsonl", 100, day)
	spec := settings{RetainedDays: 14, MaxTotalSizeMb: 1}.spec(root)
	spec.Pinned = map[string]bool{pinnedOld: true}

	dry := spec
	dry.DryRun = true
	dry.Forget = func(context.Context, []string) error { t.Fatal("a dry run forgot files"); return nil }
	res, err := retention.Sweep(ctx, dry)
	if err != nil {
		t.Fatal(err)
	}
	if res.FilesDeleted != 2 || res.FilesBySize != 1 || len(res.Deleted) != 2 || res.Deleted[0].Path != old ||
		res.Deleted[1].Path != big || !res.Deleted[1].BySize || res.Deleted[0].BySize {
		t.Fatalf("dry run: %+v", res)
	}
	for _, p := range []string{pinnedOld, old, big, fresh} {
		if !exists(p) {
			t.Fatalf("a dry run deleted %s", p)
		}
	}

	res, err = retention.Sweep(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if res.FilesDeleted != 2 || res.FilesBySize != 1 || exists(old) || exists(big) || !exists(pinnedOld) || !exists(fresh) {
		t.Fatalf("sweep: %+v; pinned kept %v, fresh kept %v", res, exists(pinnedOld), exists(fresh))
	}
}
