package opencode

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
)

// opencodeDBList lists the sessions of opencode's database (tables
// session, message and part, each message's and part's `data` a JSON
// document: packages/opencode/src/session/session.sql.ts): one per
// session row, in the folder it records, with the count of its parts and
// the last update of it, its messages and parts as its change token (a
// part is updated in place as its tool call runs).
func opencodeDBList(db agents.Queryer) ([]agents.StoredSession, error) {
	return agents.ListSessions(db, `SELECT s.id, s.directory,
		(SELECT COUNT(*) FROM part p WHERE p.session_id = s.id),
		MAX(s.time_updated,
			COALESCE((SELECT MAX(p.time_updated) FROM part p WHERE p.session_id = s.id), 0),
			COALESCE((SELECT MAX(m.time_updated) FROM message m WHERE m.session_id = s.id), 0))
		FROM session s ORDER BY s.time_created, s.id`, opencodeDBLines)
}

// opencodeDBLines renders one session of opencode's database; nil when it
// is gone.
func opencodeDBLines(db agents.Queryer, id string) ([]byte, error) {
	ctx := context.Background()
	s := ocSession{id: id}
	var dir, title *string
	rows, err := db.QueryContext(ctx, `SELECT directory, title, time_created FROM session WHERE id = ?`, id)
	if err != nil {
		return nil, err
	}
	found := rows.Next()
	if found {
		err = rows.Scan(&dir, &title, &s.created)
	}
	if err := errors.Join(err, rows.Err(), rows.Close()); err != nil || !found {
		return nil, err
	}
	if dir != nil {
		s.dir = *dir
	}
	if title != nil {
		s.title = *title
	}
	rows, err = db.QueryContext(ctx, `SELECT id, time_created, time_updated, data FROM message
		WHERE session_id = ? ORDER BY time_created, id`, id)
	if err != nil {
		return nil, err
	}
	at := map[string]int{}
	for rows.Next() {
		var m ocMessage
		if err := rows.Scan(&m.id, &m.created, &m.updated, &m.data); err != nil {
			rows.Close()
			return nil, err
		}
		at[m.id] = len(s.msgs)
		s.msgs = append(s.msgs, m)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, err
	}
	rows, err = db.QueryContext(ctx, `SELECT message_id, id, time_updated, data FROM part
		WHERE session_id = ? ORDER BY message_id, id`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var msg string
		var p ocPart
		if err := rows.Scan(&msg, &p.id, &p.updated, &p.data); err != nil {
			return nil, err
		}
		if i, ok := at[msg]; ok {
			s.msgs[i].parts = append(s.msgs[i].parts, p)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	lines, _, err := s.lines()
	return lines, err
}

// opencodeTreeSessions lists the sessions of the JSON tree opencode kept
// before its database (storage/session/<project>/<id>.json, its messages
// under storage/message/<id>/, each message's parts under
// storage/part/<message id>/): one per session file, in the folder it
// records, with the count of its message and part files and their last
// write as its change token.
func opencodeTreeSessions(storage string) ([]agents.StoredSession, error) {
	files, err := filepath.Glob(filepath.Join(storage, "session", "*", "ses_*.json"))
	if err != nil || len(files) == 0 {
		return nil, err
	}
	var out []agents.StoredSession
	var errs []error
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".json")
		fi, err := os.Stat(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var info struct {
			Directory string `json:"directory"`
		}
		if b, err := os.ReadFile(f); err != nil || json.Unmarshal(b, &info) != nil {
			errs = append(errs, errors.New(f+": not a session"))
			continue
		}
		s := agents.StoredSession{Key: agents.StoredKey(storage, id), ID: id, Project: info.Directory, MTime: fi.ModTime().UnixMilli()}
		msgs, _ := os.ReadDir(filepath.Join(storage, "message", id))
		for _, m := range msgs {
			s.Size++
			s.MTime = max(s.MTime, modMs(m))
			parts, _ := os.ReadDir(filepath.Join(storage, "part", strings.TrimSuffix(m.Name(), ".json")))
			for _, p := range parts {
				s.Size++
				s.MTime = max(s.MTime, modMs(p))
			}
		}
		s.Lines = func() ([]byte, error) {
			t, err := opencodeTreeSession(storage, id)
			if err != nil || t == nil {
				return nil, err
			}
			lines, _, err := t.lines()
			return lines, err
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}

// modMs is a folder entry's last write in unix ms; 0 when unknown.
func modMs(e fs.DirEntry) int64 {
	if fi, err := e.Info(); err == nil {
		return fi.ModTime().UnixMilli()
	}
	return 0
}

// opencodeTreeSession reads one session of the JSON tree; nil when its
// file is gone. Messages and parts are in the order of their ids, which
// opencode makes ascending in time. The files' last writes are no times
// of the session (a copy of the tree changes them): a message's times
// are those it records, a part's its own end (ocPartTime).
func opencodeTreeSession(storage, id string) (*ocSession, error) {
	files, _ := filepath.Glob(filepath.Join(storage, "session", "*", id+".json"))
	if len(files) == 0 {
		return nil, nil
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		return nil, err
	}
	var info struct {
		Directory string `json:"directory"`
		Title     string `json:"title"`
		Time      struct {
			Created int64 `json:"created"`
		} `json:"time"`
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return nil, errors.New(files[0] + ": " + err.Error())
	}
	s := &ocSession{id: id, dir: info.Directory, title: info.Title, created: info.Time.Created}
	msgs, _ := os.ReadDir(filepath.Join(storage, "message", id))
	for _, e := range sortedJSON(msgs) {
		data, err := os.ReadFile(filepath.Join(storage, "message", id, e.Name()))
		if err != nil {
			continue
		}
		m := ocMessage{id: strings.TrimSuffix(e.Name(), ".json"), data: data}
		var t struct {
			Time struct {
				Created   int64 `json:"created"`
				Completed int64 `json:"completed"`
			} `json:"time"`
		}
		if json.Unmarshal(data, &t) == nil {
			m.created, m.updated = t.Time.Created, max(t.Time.Created, t.Time.Completed)
		}
		dir := filepath.Join(storage, "part", m.id)
		parts, _ := os.ReadDir(dir)
		for _, p := range sortedJSON(parts) {
			if data, err := os.ReadFile(filepath.Join(dir, p.Name())); err == nil {
				m.parts = append(m.parts, ocPart{id: strings.TrimSuffix(p.Name(), ".json"), updated: ocPartTime(data, m.updated), data: data})
			}
		}
		s.msgs = append(s.msgs, m)
	}
	return s, nil
}

// sortedJSON keeps a folder's .json files, by name.
func sortedJSON(es []fs.DirEntry) []fs.DirEntry {
	out := es[:0:0]
	for _, e := range es {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

// ocPartTime is when a part of the JSON tree ended: its tool call's end
// (state.time.end) or its text's (time.end), else its message's.
func ocPartTime(data []byte, msg int64) int64 {
	var t struct {
		Time *struct {
			End int64 `json:"end"`
		} `json:"time"`
		State *struct {
			Time *struct {
				End int64 `json:"end"`
			} `json:"time"`
		} `json:"state"`
	}
	if json.Unmarshal(data, &t) != nil {
		return msg
	}
	switch {
	case t.State != nil && t.State.Time != nil && t.State.Time.End > 0:
		return t.State.Time.End
	case t.Time != nil && t.Time.End > 0:
		return t.Time.End
	}
	return msg
}
