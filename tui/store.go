package tui

import (
	"context"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// Store is what the inbox needs from sift's store. It is declared here, by
// its user, and kept small; *store.Store satisfies it. Its vocabulary is
// core/review's.
type Store interface {
	// ListSessions returns one page of sessions in the query's order, with
	// the list fields of their summaries (turns and tool calls may be
	// left out) and, as the inbox asks (Query.Count), how many sessions
	// the query matches.
	ListSessions(ctx context.Context, q review.Query) (review.Page, error)
	// Counts returns how many sessions a query matches, how many of them
	// are flagged and how many are undecided, all read at one moment. The
	// inbox asks for them after it has drawn the first page: on a large
	// store they cost more than a page.
	Counts(ctx context.Context, q review.Query) (review.Counts, error)
	// Changed returns a number that changes whenever anything, in this
	// process or another, wrote to the store since the last call: the
	// inbox polls it about once a second to reload what it shows.
	Changed(ctx context.Context) (uint64, error)
	// Locate returns the index of a session in a query's order, -1 when
	// the query does not select it: the selection keeps its session
	// through a change of order.
	Locate(ctx context.Context, q review.Query, k review.SessionKey) (int, error)
	// GetSession returns one session with its whole summary, its stream
	// file and its working directory.
	GetSession(ctx context.Context, k review.SessionKey) (review.Session, error)
	// Decide records a decision.
	Decide(ctx context.Context, d review.Decision) error
	// Undo withdraws the latest decision on a session (its turns and
	// tool calls included) by recording an undo, and returns the
	// decision it withdrew.
	Undo(ctx context.Context, k review.SessionKey, reviewer string) (review.Decision, error)
	// Decisions returns every decision on a session, its turns and its
	// tool calls, oldest first, undos included.
	Decisions(ctx context.Context, k review.SessionKey) ([]review.Decision, error)
	// Matches returns the places in a session that a query's search
	// matched (its turn and call, the part, a snippet of at most
	// snippetBytes), in the session's order: where the inbox opens it and
	// where n/N move.
	Matches(ctx context.Context, k review.SessionKey, q review.Query, snippetBytes int) ([]search.Match, error)
	// Followups returns the open follow-ups, oldest first.
	Followups(ctx context.Context) ([]review.Followup, error)
	// Claim marks a session as being reviewed by reviewer for ttl (0:
	// the default) and returns the claim; another reviewer's live claim
	// refuses it with a *review.ClaimedError naming them.
	Claim(ctx context.Context, k review.SessionKey, reviewer string, ttl time.Duration) (review.Claim, error)
	// Release ends reviewer's own claim on a session:
	// review.ErrNotClaimed when it has none, a *review.ClaimedError when
	// another reviewer holds it.
	Release(ctx context.Context, k review.SessionKey, reviewer string) error
}
