package agents

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/historydb"
)

// Queryer is the copy of a harness's database a history lists and
// renders its sessions from (core/historydb).
type Queryer = *historydb.DB

// DBSessions lists the sessions of a harness's database from one copy of
// it (historydb.Open), which the sessions' Lines render from until done
// removes it. A database that is not there has no sessions.
//
// An open inbox lists the histories every second (the history watch): a
// database whose file and log have not changed since its last listing in
// this process is not copied again; its sessions are the ones listed
// then, and a copy is made only if one of them is rendered.
func DBSessions(path string, list func(db Queryer) ([]StoredSession, error)) ([]StoredSession, func(), error) {
	if fi, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	} else if err == nil && !fi.Mode().IsRegular() {
		return nil, nil, nil
	}
	st, _ := historydb.StampOf(path)
	if ss, ok := dbListings.get(path, st); ok {
		return lazySessions(path, ss, list)
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
	// The stamp is the one taken before the copy: a write during the copy
	// makes the next listing copy again.
	dbListings.put(path, st, ss)
	return ss, func() { db.Close() }, nil
}

// dbListings are the sessions each database listed last, by its path,
// with the stamp it had before that copy.
var dbListings = listings{m: map[string]listing{}}

type listings struct {
	mu sync.Mutex
	m  map[string]listing
}

type listing struct {
	stamp historydb.Stamp
	ss    []StoredSession // without Lines
}

func (l *listings) get(path string, st historydb.Stamp) ([]StoredSession, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, ok := l.m[path]
	if !ok || c.stamp != st {
		return nil, false
	}
	return slices.Clone(c.ss), true
}

func (l *listings) put(path string, st historydb.Stamp, ss []StoredSession) {
	kept := slices.Clone(ss)
	for i := range kept {
		kept[i].Lines = nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.m[path] = listing{st, kept}
}

// lazySessions are sessions listed before, whose Lines make one copy of
// the database when the first of them is rendered, list it again and
// render from that listing (a session gone since renders nothing); done
// removes the copy, if one was made.
func lazySessions(path string, ss []StoredSession, list func(db Queryer) ([]StoredSession, error)) ([]StoredSession, func(), error) {
	var (
		once  sync.Once
		db    Queryer
		lines map[string]func() ([]byte, error)
		err   error
	)
	open := func() {
		if db, err = historydb.Open(context.Background(), path); err != nil {
			return
		}
		var now []StoredSession
		if now, err = list(db); err != nil {
			return
		}
		lines = make(map[string]func() ([]byte, error), len(now))
		for _, s := range now {
			lines[s.ID] = s.Lines
		}
	}
	for i := range ss {
		id := ss[i].ID
		ss[i].Lines = func() ([]byte, error) {
			once.Do(open)
			if err != nil {
				return nil, err
			}
			if f := lines[id]; f != nil {
				return f()
			}
			return nil, nil
		}
	}
	return ss, func() {
		if db != nil {
			db.Close()
		}
	}, nil
}

// DBRender renders one session of a harness's database from a copy of
// it, made for this render alone. A database that is gone renders
// nothing.
func DBRender(path string, render func(db Queryer) ([]byte, error)) ([]byte, error) {
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

// JoinDone is one done func calling each of dones; nil for none.
func JoinDone(dones []func()) func() {
	if len(dones) == 0 {
		return nil
	}
	return func() {
		for _, d := range dones {
			d()
		}
	}
}

// JoinErrs joins errors; nil for none.
func JoinErrs(errs []error) error { return errors.Join(errs...) }

// ListSessions runs a query whose rows are a session's id, its folder
// (NULL for none) and its change token (size, mtime), and makes each row
// a session that lines renders from the same copy.
func ListSessions(db Queryer, query string, lines func(db Queryer, id string) ([]byte, error)) ([]StoredSession, error) {
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

// rowMaps reads every row of a query as its columns by name: Goose's
// schema grew columns over its versions (metadata_json, name,
// model_config_json), and a reader of any version asks for what is there.
func rowMaps(db Queryer, q string, args ...any) ([]map[string]any, error) {
	rows, err := db.QueryContext(context.Background(), q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		m := make(map[string]any, len(cols))
		for i, c := range cols {
			if b, ok := vals[i].([]byte); ok {
				vals[i] = string(b)
			}
			m[c] = vals[i]
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// RowLines renders a session kept as a row and its message rows as the
// lines a history parser reads: {"session": row}, then {"message": row}
// per message, each row's columns by name, the columns named in docs
// (JSON documents in text columns) kept as JSON; nil when the session is
// gone. The render is sift's: the database holds rows.
func RowLines(db Queryer, sessionQuery, messagesQuery, id string, docs ...string) ([]byte, error) {
	ss, err := rowMaps(db, sessionQuery, id)
	if err != nil || len(ss) == 0 {
		return nil, err
	}
	msgs, err := rowMaps(db, messagesQuery, id)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	put := func(key string, v any) error {
		b, err := json.Marshal(map[string]any{key: v})
		if err != nil {
			return err
		}
		out.Write(b)
		out.WriteByte('\n')
		return nil
	}
	if err := put("session", ss[0]); err != nil {
		return nil, err
	}
	for _, m := range msgs {
		for _, k := range docs {
			if s, ok := m[k].(string); ok && json.Valid([]byte(s)) {
				m[k] = json.RawMessage(s)
			}
		}
		if err := put("message", m); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}
