package search

import (
	"errors"
	"strings"
	"time"

	"github.com/agentsift/sift/core/redact"
)

// The filters of reviewing together (issue 18): whose sessions they are.
// They are words of their own rather than field:value filters, except
// by:NAME, and live here so that the rest of the language does not
// change for them.
const (
	// FieldMine keeps the sessions the searching reviewer
	// (Options.Reviewer, the filter's Value) claims or holds a current
	// decision on.
	FieldMine Field = "mine"
	// FieldUnclaimed keeps the sessions no live claim holds at the
	// filter's Now.
	FieldUnclaimed Field = "unclaimed"
	// FieldBy keeps the sessions the reviewer Value claims or holds a
	// current decision on.
	FieldBy Field = "by"
)

// errNoReviewer is mine's error when the search has no reviewer.
var errNoReviewer = errors.New("mine needs your reviewer id: --reviewer, the configuration's Reviewer or $USER")

// parseTeam reads a team filter: mine, unclaimed or by:NAME, each
// invertible with a leading -. ok is false for any other token. Now is
// the search's clock, which tells a live claim from an expired one.
func parseTeam(t token, o Options) (f Filter, ok bool, err error) {
	f = Filter{Op: OpIs, Not: t.not, Now: o.Now}
	word := strings.ToLower(t.raw)
	switch {
	case word == string(FieldMine):
		f.Field, f.Value = FieldMine, redact.String(o.Reviewer)
		if strings.TrimSpace(o.Reviewer) == "" {
			return f, true, &ParseError{Token: t.raw, Err: errNoReviewer}
		}
	case word == string(FieldUnclaimed):
		f.Field = FieldUnclaimed
	case strings.HasPrefix(word, string(FieldBy)+":"):
		// Reviewer ids are stored redacted (store.reviewerID).
		f.Field, f.Value = FieldBy, redact.String(strings.Trim(t.raw[len(FieldBy)+1:], `"`))
		if f.Value == "" {
			return f, true, &ParseError{Token: t.raw, Err: errors.New("by needs a reviewer id, such as by:ana")}
		}
	default:
		return Filter{}, false, nil
	}
	return f, true, nil
}

// teamHelp is Help's part for the team filters.
func teamHelp() []string {
	return []string{
		`  mine              claimed by you, or decided by you (its current decision)`,
		`  unclaimed         no reviewer holds a claim on it (c claims one)`,
		`  by:ana            claimed by ana, or decided by ana (its current decision)`,
		`                    (to search for the word mine or unclaimed, quote it: "mine")`,
	}
}

// ClaimsAt returns the time a team filter judges claims at: a claim is
// live when it expires after it. It is the search's clock (Now), or the
// time it is asked when the filter was built without one.
func (f Filter) ClaimsAt() time.Time {
	if f.Now.IsZero() {
		return time.Now()
	}
	return f.Now
}
