package httpapi

import (
	"context"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/store"
)

// Store is what the API needs of the session store; *store.Store has it.
// Decide, Claim and Release are its only writes, and only POST
// /decisions and POST /sessions/…/claim call them: a GET never writes.
type Store interface {
	ListSessions(ctx context.Context, q review.Query) (review.Page, error)
	GetSession(ctx context.Context, k review.SessionKey) (review.Session, error)
	ResolveSession(ctx context.Context, ref string) (review.SessionKey, error)
	Decide(ctx context.Context, d review.Decision) error
	Claim(ctx context.Context, k review.SessionKey, reviewer string, ttl time.Duration) (review.Claim, error)
	Release(ctx context.Context, k review.SessionKey, reviewer string) error
	Decisions(ctx context.Context, k review.SessionKey) ([]review.Decision, error)
	LatestDecisions(ctx context.Context, k review.SessionKey) ([]review.Decision, error)
	StreamFiles(ctx context.Context, workItemID string) ([]store.StreamFile, error)
	Matches(ctx context.Context, k review.SessionKey, q review.Query, snippetBytes int) ([]search.Match, error)
	Followups(ctx context.Context) ([]review.Followup, error)
}

var _ Store = (*store.Store)(nil)
