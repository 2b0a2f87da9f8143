package agents

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/agentsift/sift/core/historydb"
)

// queryer is the copy of a harness's database a history lists and
// renders its sessions from (core/historydb).
type queryer = *historydb.DB

// dbSessions lists the sessions of a harness's database from one copy of
// it (historydb.Open), which the sessions' Lines render from until done
// removes it. A database that is not there has no sessions.
func dbSessions(path string, list func(db queryer) ([]StoredSession, error)) ([]StoredSession, func(), error) {
	if fi, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	} else if err == nil && !fi.Mode().IsRegular() {
		return nil, nil, nil
	}
	db, err := historydb.Open(context.Background(), path)
	if err != nil {
		return nil, nil, err
	}
	ss, err := list(db)
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("list the sessions of %s: %w", path, err)
	}
	for i := range ss {
		ss[i].Key = StoredKey(path, ss[i].ID)
	}
	return ss, func() { db.Close() }, nil
}

// dbRender renders one session of a harness's database from a copy of
// it, made for this render alone. A database that is gone renders
// nothing.
func dbRender(path string, render func(db queryer) ([]byte, error)) ([]byte, error) {
	db, err := historydb.Open(context.Background(), path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return render(db)
}

// joinDone is one done func calling each of dones; nil for none.
func joinDone(dones []func()) func() {
	if len(dones) == 0 {
		return nil
	}
	return func() {
		for _, d := range dones {
			d()
		}
	}
}

// joinErrs joins errors; nil for none.
func joinErrs(errs []error) error { return errors.Join(errs...) }

// listSessions runs a query whose rows are a session's id, its folder
// (NULL for none) and its change token (size, mtime), and makes each row
// a session that lines renders from the same copy.
func listSessions(db queryer, query string, lines func(db queryer, id string) ([]byte, error)) ([]StoredSession, error) {
	rows, err := db.QueryContext(context.Background(), query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StoredSession
	for rows.Next() {
		var s StoredSession
		var dir *string
		if err := rows.Scan(&s.ID, &dir, &s.Size, &s.MTime); err != nil {
			return nil, err
		}
		if dir != nil {
			s.Project = *dir
		}
		id := s.ID
		s.Lines = func() ([]byte, error) { return lines(db, id) }
		out = append(out, s)
	}
	return out, rows.Err()
}
