package review

import (
	"errors"
	"fmt"
	"time"
)

// DefaultClaimTTL is how long a claim holds when the configuration does
// not say (config ClaimMinutes): long enough to review a session, short
// enough that a reviewer who walked away does not block the others for
// the morning.
const DefaultClaimTTL = 30 * time.Minute

// Claim is a reviewer's mark on a session that they are reviewing it, so
// that the others of a team leave it to them. A session has at most one
// live claim. It ends when its reviewer releases it, when they record a
// decision on the session, or when it expires: an expired claim is no
// claim at all, shown nowhere and counted by no filter.
type Claim struct {
	Session SessionKey `json:"-"`
	// Reviewer is the reviewer id of who holds it.
	Reviewer string `json:"reviewerId"`
	// Host names the machine it was made on.
	Host string `json:"host,omitempty"`
	// ClaimedAt is when it was made (or last renewed); ExpiresAt when it
	// ends unless renewed.
	ClaimedAt time.Time `json:"claimedAt"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// LiveAt reports whether the claim still holds at t.
func (c *Claim) LiveAt(t time.Time) bool { return c != nil && t.Before(c.ExpiresAt) }

// ErrClaimed matches a ClaimedError: the session is claimed by another
// reviewer.
var ErrClaimed = errors.New("claimed by another reviewer")

// ErrNotClaimed is the error of releasing a session that has no live
// claim.
var ErrNotClaimed = errors.New("not claimed")

// ClaimedError is the error of claiming, or releasing, a session another
// reviewer holds: it names who holds it and until when.
type ClaimedError struct {
	Claim Claim
}

// Error implements error: "claimed by ana (build-7) since 09:14".
func (e *ClaimedError) Error() string {
	at := ""
	if e.Claim.Host != "" {
		at = " (" + e.Claim.Host + ")"
	}
	return fmt.Sprintf("%s is claimed by %s%s since %s", e.Claim.Session, e.Claim.Reviewer, at,
		e.Claim.ClaimedAt.Local().Format("15:04"))
}

// Is makes errors.Is(err, ErrClaimed) hold.
func (e *ClaimedError) Is(target error) bool { return target == ErrClaimed }
