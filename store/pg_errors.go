package store

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// wrapPgError maps a PostgreSQL error to the store's own (wrapError): an
// integrity violation (class 23, the append-only trigger's included) to
// ErrConflict, a full disk to ErrFull, data corruption to ErrCorrupt.
// It returns nil for any other error.
func wrapPgError(err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return nil
	}
	switch {
	case len(pe.Code) == 5 && pe.Code[:2] == "23":
		return &mappedError{sentinel: ErrConflict, err: err}
	case pe.Code == "53100":
		return &mappedError{sentinel: ErrFull, err: err}
	case pe.Code == "XX001" || pe.Code == "XX002":
		return &mappedError{sentinel: ErrCorrupt, err: err,
			hint: "the server reports damaged data: ask its operator to restore it"}
	}
	return nil
}
