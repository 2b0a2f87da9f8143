package httpapi

import (
	"context"

	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/store"
)

// Store is what the API needs of the session store; *store.Store has it.
// Decide is its only write, and only POST /decisions calls it: a GET
// never writes.
type Store interface {
	ListSessions(ctx context.Context, q store.Query) ([]summary.Summary, error)
	GetSummary(ctx context.Context, workItemID, fileName string) (*summary.Summary, error)
	ResolveSession(ctx context.Context, ref string) (store.SessionKey, error)
	Decide(ctx context.Context, d store.Decision) error
	Decisions(ctx context.Context, workItemID, fileName string) ([]store.Decision, error)
	LatestDecisions(ctx context.Context, workItemID, fileName string) ([]store.Decision, error)
	StreamFiles(ctx context.Context, workItemID string) ([]store.StreamFile, error)
}

var _ Store = (*store.Store)(nil)
