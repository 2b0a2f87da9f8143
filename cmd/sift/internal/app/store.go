package app

import (
	"context"
	"time"

	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// Store is the store as reviewers write to it: a decision's note and a
// reviewer id are text someone typed, or a teammate's file holds, and are
// redacted on their way in, as a stream's text is on its way into a
// summary; the store keeps what it is given. The commands, the inbox and
// the API write decisions and claims through it.
type Store struct{ *store.Store }

// Decide records a decision, its note and reviewer redacted.
func (s Store) Decide(ctx context.Context, d review.Decision) error {
	d.Note, d.Reviewer = redact.String(d.Note), redact.String(d.Reviewer)
	return s.Store.Decide(ctx, d)
}

// Undo withdraws the reviewer's latest decision on a session.
func (s Store) Undo(ctx context.Context, k review.SessionKey, reviewer string) (review.Decision, error) {
	return s.Store.Undo(ctx, k, redact.String(reviewer))
}

// Claim claims a session for the reviewer.
func (s Store) Claim(ctx context.Context, k review.SessionKey, reviewer string, ttl time.Duration) (review.Claim, error) {
	return s.Store.Claim(ctx, k, redact.String(reviewer), ttl)
}

// Release ends the reviewer's claim on a session.
func (s Store) Release(ctx context.Context, k review.SessionKey, reviewer string) error {
	return s.Store.Release(ctx, k, redact.String(reviewer))
}

// ImportDecisions reads decisions back (store.ImportDecisions), each note
// and reviewer id redacted, the withdrawn decision's too.
func (s Store) ImportDecisions(ctx context.Context, read func(add func(store.ExportedDecision) error) error) (store.DecisionImport, error) {
	return s.Store.ImportDecisions(ctx, func(add func(store.ExportedDecision) error) error {
		return read(func(d store.ExportedDecision) error {
			d.Note, d.Reviewer = redact.String(d.Note), redact.String(d.Reviewer)
			if w := d.Withdraws; w != nil {
				c := *w
				c.Note, c.Reviewer = redact.String(c.Note), redact.String(c.Reviewer)
				d.Withdraws = &c
			}
			return add(d)
		})
	})
}
