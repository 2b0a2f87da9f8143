package store

import "github.com/agentsift/sift/core/review"

// pageRows returns the sessions of a page: the rows of a list, for tests
// that read them without the total.
func pageRows(p review.Page, err error) ([]review.Session, error) { return p.Sessions, err }
