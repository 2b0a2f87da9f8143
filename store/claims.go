package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/agentsift/sift/core/review"
)

// claimCols are the columns of a claim, in scanClaim's order.
const claimCols = `work_item_id, file_name, reviewer_id, host, claimed_at, expires_at`

// scanClaim reads claimCols.
func scanClaim(sc interface{ Scan(...any) error }) (review.Claim, error) {
	var c review.Claim
	var at, until int64
	err := sc.Scan(&c.Session.WorkItemID, &c.Session.FileName, &c.Reviewer, &c.Host, &at, &until)
	c.ClaimedAt, c.ExpiresAt = time.UnixMilli(at).UTC(), time.UnixMilli(until).UTC()
	return c, err
}

// Claim marks a session as being reviewed by reviewer, from this machine,
// for ttl (review.DefaultClaimTTL when 0 or less), and returns the claim.
// A session another reviewer holds a live claim on is refused with a
// *review.ClaimedError naming them (errors.Is review.ErrClaimed); the
// reviewer's own claim is renewed; an expired claim is replaced. The
// session must exist (ErrNotFound).
func (s *Store) Claim(ctx context.Context, k review.SessionKey, reviewer string, ttl time.Duration) (review.Claim, error) {
	if strings.TrimSpace(reviewer) == "" {
		return review.Claim{}, errors.New("claim: no reviewer id (set --reviewer, the configuration's Reviewer or $USER)")
	}
	if ttl <= 0 {
		ttl = review.DefaultClaimTTL
	}
	now := s.now()
	host, _ := os.Hostname()
	c := review.Claim{Session: k, Reviewer: reviewer, Host: host, ClaimedAt: now.UTC().Truncate(time.Millisecond),
		ExpiresAt: now.Add(ttl).UTC().Truncate(time.Millisecond)}
	err := s.claimTx(ctx, "claim", k, func(tx *sql.Tx, held *review.Claim) error {
		if held != nil && held.Reviewer != reviewer {
			return &review.ClaimedError{Claim: *held}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO review_claims (`+claimCols+`) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (work_item_id, file_name) DO UPDATE SET reviewer_id = excluded.reviewer_id,
				host = excluded.host, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at`,
			k.WorkItemID, k.FileName, c.Reviewer, c.Host, c.ClaimedAt.UnixMilli(), c.ExpiresAt.UnixMilli())
		return wrapError(err)
	})
	if err != nil {
		return review.Claim{}, err
	}
	return c, nil
}

// Release ends reviewer's claim on a session. A session with no live
// claim is review.ErrNotClaimed; one another reviewer holds is a
// *review.ClaimedError, and stays theirs.
func (s *Store) Release(ctx context.Context, k review.SessionKey, reviewer string) error {
	return s.claimTx(ctx, "release", k, func(tx *sql.Tx, held *review.Claim) error {
		switch {
		case held == nil:
			return review.ErrNotClaimed
		case held.Reviewer != reviewer:
			return &review.ClaimedError{Claim: *held}
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM review_claims WHERE work_item_id = ? AND file_name = ?`,
			k.WorkItemID, k.FileName)
		return wrapError(err)
	})
}

// claimTx runs fn in a write transaction with the session's live claim
// (nil when it has none), once the session is known to exist. On
// PostgreSQL the session's lock orders two reviewers claiming at once.
func (s *Store) claimTx(ctx context.Context, what string, k review.SessionKey, fn func(tx *sql.Tx, held *review.Claim) error) error {
	if k.WorkItemID == "" || k.FileName == "" {
		return fmt.Errorf("%s: session not given", what)
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, k, wrapError(err))
	}
	defer tx.Rollback()
	if err := s.lockSession(ctx, tx, k); err != nil {
		return fmt.Errorf("%s %s: %w", what, k, err)
	}
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM agent_stream_summaries WHERE work_item_id = ? AND file_name = ?`,
		k.WorkItemID, k.FileName).Scan(&one); err != nil {
		return fmt.Errorf("%s %s: %w", what, k, wrapError(err))
	}
	var held *review.Claim
	c, err := scanClaim(tx.QueryRowContext(ctx, `SELECT `+claimCols+` FROM review_claims
		WHERE work_item_id = ? AND file_name = ? AND expires_at > ?`, k.WorkItemID, k.FileName, s.now().UnixMilli()))
	switch {
	case err == nil:
		held = &c
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("%s %s: %w", what, k, wrapError(err))
	}
	if err := fn(tx, held); err != nil {
		return fmt.Errorf("%s %s: %w", what, k, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s %s: %w", what, k, wrapError(err))
	}
	return nil
}

// releaseByDecision ends the deciding reviewer's claim on a session, in
// Decide's transaction: a decision on the session is the end of its
// review. Another reviewer's claim stays.
func releaseByDecision(ctx context.Context, tx *sql.Tx, d review.Decision) error {
	if !d.OnSession() {
		return nil
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM review_claims WHERE work_item_id = ? AND file_name = ? AND reviewer_id = ?`,
		d.Session.WorkItemID, d.Session.FileName, d.Reviewer)
	return wrapError(err)
}

// ClaimOf returns a session's live claim, nil when it has none.
func (s *Store) ClaimOf(ctx context.Context, k review.SessionKey) (*review.Claim, error) {
	c, err := scanClaim(s.r.QueryRowContext(ctx, `SELECT `+claimCols+` FROM review_claims
		WHERE work_item_id = ? AND file_name = ? AND expires_at > ?`, k.WorkItemID, k.FileName, s.now().UnixMilli()))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("claim of %s: %w", k, wrapError(err))
	}
	return &c, nil
}

// attachClaims fills the live claims of a page of sessions
// (Session.Claim), read in one query over the page's work items.
func (s *Store) attachClaims(ctx context.Context, ss []review.Session) error {
	if len(ss) == 0 {
		return nil
	}
	var wis []any
	seen := map[string]bool{}
	for i := range ss {
		if wi := ss[i].WorkItemID; !seen[wi] {
			seen[wi] = true
			wis = append(wis, wi)
		}
	}
	at := map[review.SessionKey]int{}
	for i := range ss {
		at[ss[i].Key()] = i
	}
	// The page's work items, a few at a time: a bound on the query's
	// arguments whatever the page's size.
	const batch = 200
	for len(wis) > 0 {
		n := min(batch, len(wis))
		args := append([]any{s.now().UnixMilli()}, wis[:n]...)
		rows, err := s.r.QueryContext(ctx, `SELECT `+claimCols+` FROM review_claims
			WHERE expires_at > ? AND work_item_id IN (?`+strings.Repeat(", ?", n-1)+`)`, args...)
		if err != nil {
			return fmt.Errorf("claims: %w", wrapError(err))
		}
		for rows.Next() {
			c, err := scanClaim(rows)
			if err != nil {
				rows.Close()
				return fmt.Errorf("claims: %w", err)
			}
			if i, ok := at[c.Session]; ok {
				ss[i].Claim = &c
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("claims: %w", wrapError(err))
		}
		wis = wis[n:]
	}
	return nil
}
