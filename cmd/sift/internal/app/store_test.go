package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/redact/redacttest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// TestStoreRedactsWhatReviewersWrite: a note and a reviewer id are
// redacted on their way into the store, through every way a reviewer
// writes (decide, undo, claim, decisions import); the store itself keeps
// what it is given.
func TestStoreRedactsWhatReviewersWrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs", "wi-1")
	if err := os.MkdirAll(logs, 0o700); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("../../../../testdata/streams/claude/evolve-2.1.7-run1-write-file.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(logs, "work-1-a1b2c3.jsonl"), src, 0o600); err != nil {
		t.Fatal(err)
	}
	raw, err := store.Open(filepath.Join(dir, "sift.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := ingest.Import(ctx, raw, []string{filepath.Dir(logs)}, ingest.Options{}, nil); err != nil {
		t.Fatal(err)
	}
	k := review.SessionKey{WorkItemID: "wi-1", FileName: "work-1-a1b2c3.jsonl"}
	secret := redacttest.Tok("ghp_", redacttest.AAlnum, 36)
	st := Store{raw}

	if err := st.Decide(ctx, review.Decision{Session: k, Kind: review.NeedsFollowup, Note: "token " + secret, Reviewer: secret}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Claim(ctx, k, secret, time.Hour); err != nil {
		t.Fatal(err)
	}
	c, err := raw.ClaimOf(ctx, k)
	if err != nil || c == nil || strings.Contains(c.Reviewer, secret[4:12]) {
		t.Errorf("claim %+v %v: the reviewer id is stored as typed", c, err)
	}
	if err := st.Release(ctx, k, secret); err != nil {
		t.Errorf("release by the same (redacted) reviewer: %v", err)
	}
	if _, err := st.Undo(ctx, k, secret); err != nil {
		t.Errorf("undo by the same (redacted) reviewer: %v", err)
	}
	old := time.Now().Add(-time.Hour).UTC()
	if _, err := st.ImportDecisions(ctx, func(add func(store.ExportedDecision) error) error {
		return add(store.ExportedDecision{WorkItemID: k.WorkItemID, FileName: k.FileName, Decision: review.Reviewed,
			Note: "from a file " + secret, Reviewer: secret, CreatedAt: old})
	}); err != nil {
		t.Fatal(err)
	}
	hist, err := raw.Decisions(ctx, k)
	if err != nil || len(hist) != 3 {
		t.Fatalf("history %+v %v", hist, err)
	}
	for _, d := range hist {
		if strings.Contains(d.Note+d.Reviewer, secret[4:12]) || !strings.Contains(d.Note+d.Reviewer, "[REDACTED:github-token]") {
			t.Errorf("stored %q by %q", d.Note, d.Reviewer)
		}
	}

	// The store keeps what it is given: redaction is the layer's.
	if err := raw.Decide(ctx, review.Decision{Session: k, Kind: review.Reviewed, Note: "plain " + secret}); err != nil {
		t.Fatal(err)
	}
	if hist, _ := raw.Decisions(ctx, k); !strings.Contains(hist[len(hist)-1].Note, secret) {
		t.Errorf("the store changed a note it was given: %q", hist[len(hist)-1].Note)
	}
}
