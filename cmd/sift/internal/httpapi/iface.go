package httpapi

import (
	"context"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/store"
)

// Store is what the API needs of the session store; *store.Store has it.
// Decide is its only write, and only POST /decisions calls it: a GET
// never writes.
type Store interface {
	ListSessions(ctx context.Context, q review.Query) (review.Page, error)
	GetSession(ctx context.Context, k review.SessionKey) (review.Session, error)
	ResolveSession(ctx context.Context, ref string) (review.SessionKey, error)
	Decide(ctx context.Context, d review.Decision) error
	Decisions(ctx context.Context, k review.SessionKey) ([]review.Decision, error)
	LatestDecisions(ctx context.Context, k review.SessionKey) ([]review.Decision, error)
	StreamFiles(ctx context.Context, workItemID string) ([]store.StreamFile, error)
	Matches(ctx context.Context, k review.SessionKey, q review.Query, snippetBytes int) ([]search.Match, error)
}

var _ Store = (*store.Store)(nil)
