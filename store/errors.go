package store

import (
	"database/sql"
	"errors"
	"strings"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Errors callers can match with errors.Is.
var (
	// ErrNotFound is returned when a session, work item or invocation
	// does not exist.
	ErrNotFound = errors.New("not found")
	// ErrConflict is returned when a write violates a constraint.
	ErrConflict = errors.New("conflict")
	// ErrAmbiguous is returned when a session reference matches more than
	// one session.
	ErrAmbiguous = errors.New("ambiguous session reference")
	// ErrFull is returned when the disk (or the database's size limit) is
	// full.
	ErrFull = errors.New("database or disk is full")
	// ErrCorrupt is returned when the database file turns out damaged
	// after it was opened.
	ErrCorrupt = errors.New("database file is corrupt")
)

// wrapError maps driver errors to the store's own: no rows to ErrNotFound,
// constraint violations to ErrConflict, a full disk to ErrFull. The
// driver's message is kept.
func wrapError(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if m := wrapPgError(err); m != nil {
		return m
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CONSTRAINT:
			return &mappedError{sentinel: ErrConflict, err: err}
		case sqlite3.SQLITE_FULL:
			return &mappedError{sentinel: ErrFull, err: err}
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return &mappedError{sentinel: ErrCorrupt, err: err,
				hint: "the database file is damaged: move it aside and run `sift rebuild` to recreate it from the stream files"}
		}
	}
	if strings.Contains(err.Error(), "disk is full") {
		return &mappedError{sentinel: ErrFull, err: err}
	}
	return err
}

// mappedError is a driver error that also matches one of the store's
// sentinels.
type mappedError struct {
	sentinel error
	err      error
	// hint says what to do, when there is something.
	hint string
}

// Error returns the driver's message, and what to do when known.
func (e *mappedError) Error() string {
	if e.hint != "" {
		return e.err.Error() + "; " + e.hint
	}
	return e.err.Error()
}

// Is reports whether target is the sentinel this error maps to.
func (e *mappedError) Is(target error) bool { return target == e.sentinel }

// Unwrap returns the driver's error.
func (e *mappedError) Unwrap() error { return e.err }

// isBusy reports whether err is SQLite's "database is locked": another
// connection held the write lock longer than busyTimeout.
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}
