package opencode

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// opencodeHistory is where opencode keeps its sessions: its data folder,
// ($XDG_DATA_HOME, else ~/.local/share)/opencode on every system (its
// Global.Path.data, from xdg-basedir), and the database $OPENCODE_DB
// names (a path, absolute or under the data folder).
func opencodeHistory() *agents.History {
	h := DatabaseHistory("opencode", "OPENCODE_DB")
	h.Parser = opencodeHistoryParser{}
	return h
}

// DatabaseHistory is the history of opencode or of a fork of it that keeps
// its sessions as opencode does under its own name (Kilo Code's CLI:
// kilo.db and $KILO_DB): its Dirs, Sessions and Render, without a
// Parser (the fork's entry reads the lines with HistoryStream).
func DatabaseHistory(app, dbEnv string) *agents.History {
	return &agents.History{
		Dirs: func(getenv func(string) string, home string) []string {
			data := agents.XDGData(getenv, home, app)
			if data == "" {
				return nil
			}
			dirs := []string{data}
			if db := getenv(dbEnv); db != "" && db != ":memory:" {
				if !filepath.IsAbs(db) {
					db = filepath.Join(data, db)
				}
				if filepath.Dir(db) != data {
					dirs = append(dirs, db)
				}
			}
			return dirs
		},
		Sessions: func(root string) ([]agents.StoredSession, func(), error) { return dataSessions(app, root) },
		Render:   opencodeRender,
	}
}

// HistoryStream reads a session DatabaseHistory rendered.
func HistoryStream() agents.Stream { return &opencodeHistoryStream{} }

// IsHistoryLine reports whether a line is the first of a session
// DatabaseHistory rendered (its session line).
func IsHistoryLine(b []byte) bool { return bytes.HasPrefix(b, []byte(`{"type":"session",`)) }

// dataSessions lists the sessions under an app's data folder: those of
// its databases (<app>.db, and a build channel's <app>-<channel>.db) and
// of the JSON tree older versions kept (storage/). A root that is a
// database file ($OPENCODE_DB) is that database's.
func dataSessions(app, root string) ([]agents.StoredSession, func(), error) {
	if strings.HasSuffix(root, ".db") {
		return agents.DBSessions(root, opencodeDBList)
	}
	var dbs []string
	if m, err := filepath.Glob(filepath.Join(root, app+"*.db")); err == nil {
		dbs = m
	}
	var out []agents.StoredSession
	var dones []func()
	var errs []error
	for _, db := range dbs {
		if b := filepath.Base(db); b != app+".db" && !strings.HasPrefix(b, app+"-") {
			continue
		}
		ss, done, err := agents.DBSessions(db, opencodeDBList)
		out = append(out, ss...)
		if done != nil {
			dones = append(dones, done)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	ss, err := opencodeTreeSessions(filepath.Join(root, "storage"))
	out = append(out, ss...)
	if err != nil {
		errs = append(errs, err)
	}
	return out, agents.JoinDone(dones), agents.JoinErrs(errs)
}

// opencodeRender renders again an opencode session by its key: a
// database's (its container ends in .db) or the JSON tree's (its container
// is a storage folder). opencode's session ids start with ses_.
func opencodeRender(key string) ([]byte, bool, error) {
	container, id, ok := agents.SplitStoredKey(key)
	if !ok || !strings.HasPrefix(id, "ses_") {
		return nil, false, nil
	}
	switch {
	case strings.HasSuffix(container, ".db"):
		lines, err := agents.DBRender(container, func(db agents.Queryer) ([]byte, error) { return opencodeDBLines(db, id) })
		return lines, true, err
	case filepath.Base(container) == "storage":
		s, err := opencodeTreeSession(container, id)
		if err != nil || s == nil {
			if os.IsNotExist(err) {
				err = nil
			}
			return nil, true, err
		}
		return s.lines()
	}
	return nil, false, nil
}

// ocSession is one opencode session as its renderer reads it, whichever
// store it came from.
type ocSession struct {
	id, dir, title string
	created        int64
	msgs           []ocMessage
}

// ocMessage is a message: its info (role, model, tokens, error) and its
// parts in order.
type ocMessage struct {
	id      string
	created int64
	updated int64
	data    []byte
	parts   []ocPart
}

// ocPart is a part of a message: its data is the part as opencode keeps
// it (a text, a reasoning, a tool call with its state, a step's start or
// finish with its tokens and cost).
type ocPart struct {
	id      string
	updated int64
	data    []byte
}

// ocRunTypes maps a part's type to the envelope `opencode run --format
// json` prints it in (packages/opencode/src/cli/cmd/run.ts): the history
// is rendered as the stream opencode's parser reads.
var ocRunTypes = map[string]string{
	"step-start":  "step_start",
	"step-finish": "step_finish",
	"text":        "text",
	"reasoning":   "reasoning",
	"tool":        "tool_use",
}

// lines renders the session as the lines its history parser reads: a
// session line (its id, folder and title), then per message a prompt
// line for what the person wrote (a user message's text parts, the
// synthetic ones opencode adds left out), or a message line (its model)
// and its parts as run.ts's envelopes, and the error the message ended
// with as run.ts's error envelope.
func (s *ocSession) lines() ([]byte, bool, error) {
	var out bytes.Buffer
	put := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		out.Write(b)
		out.WriteByte('\n')
		return nil
	}
	if err := put(ocSessionLine{Type: "session", SessionID: s.id, Directory: s.dir, Title: s.title, Timestamp: s.created}); err != nil {
		return nil, true, err
	}
	for i := range s.msgs {
		m := &s.msgs[i]
		var info struct {
			Role       string          `json:"role"`
			ModelID    string          `json:"modelID"`
			ProviderID string          `json:"providerID"`
			Error      json.RawMessage `json:"error"`
			Tokens     json.RawMessage `json:"tokens"`
			Cost       json.RawMessage `json:"cost"`
		}
		if json.Unmarshal(m.data, &info) != nil {
			continue
		}
		if info.Role == "user" {
			var texts []string
			for _, p := range m.parts {
				var d struct {
					Type      string `json:"type"`
					Text      string `json:"text"`
					Synthetic bool   `json:"synthetic"`
					Ignored   bool   `json:"ignored"`
				}
				if json.Unmarshal(p.data, &d) == nil && d.Type == "text" && !d.Synthetic && !d.Ignored && strings.TrimSpace(d.Text) != "" {
					texts = append(texts, d.Text)
				}
			}
			if len(texts) > 0 {
				if err := put(ocPromptLine{Type: "prompt", SessionID: s.id, Timestamp: m.created, Text: strings.Join(texts, "\n")}); err != nil {
					return nil, true, err
				}
			}
			continue
		}
		model := info.ModelID
		if info.ProviderID != "" && model != "" {
			model = info.ProviderID + "/" + model
		}
		if err := put(ocMessageLine{Type: "message", SessionID: s.id, MessageID: m.id, Model: model, Timestamp: m.created}); err != nil {
			return nil, true, err
		}
		steps := false
		for _, p := range m.parts {
			var d struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(p.data, &d) != nil || ocRunTypes[d.Type] == "" {
				continue
			}
			steps = steps || d.Type == "step-finish"
			if err := ocPartLine(&out, s.id, m.id, p, ocRunTypes[d.Type]); err != nil {
				return nil, true, err
			}
		}
		if !steps && agents.Present(info.Tokens) {
			// A message whose steps are not kept counts its own tokens
			// and cost, as ccusage reads opencode (the message's data):
			// a step of the message's.
			step, err := json.Marshal(struct {
				Type   string          `json:"type"`
				Tokens json.RawMessage `json:"tokens"`
				Cost   json.RawMessage `json:"cost,omitempty"`
			}{"step-finish", info.Tokens, info.Cost})
			if err != nil {
				return nil, true, err
			}
			if err := ocPartLine(&out, s.id, m.id, ocPart{id: m.id, updated: m.updated, data: step}, "step_finish"); err != nil {
				return nil, true, err
			}
		}
		if agents.Present(info.Error) {
			if err := put(ocErrorLine{Type: "error", Timestamp: m.updated, SessionID: s.id, Error: info.Error}); err != nil {
				return nil, true, err
			}
		}
	}
	return out.Bytes(), true, nil
}

// ocPartLine writes a part as run.ts's envelope of its type:
// {"type","timestamp","sessionID","part":{id, messageID, sessionID, …the
// part}}. A part that is no JSON object is left out.
func ocPartLine(out *bytes.Buffer, session, msg string, p ocPart, typ string) error {
	// The JSON tree's files are indented: one line each.
	var body bytes.Buffer
	if json.Compact(&body, p.data) != nil || body.Len() < 2 || body.Bytes()[0] != '{' {
		return nil
	}
	head, err := json.Marshal(struct {
		ID        string `json:"id"`
		MessageID string `json:"messageID"`
		SessionID string `json:"sessionID"`
	}{p.id, msg, session})
	if err != nil {
		return err
	}
	env, err := json.Marshal(struct {
		Type      string `json:"type"`
		Timestamp int64  `json:"timestamp"`
		SessionID string `json:"sessionID"`
	}{typ, p.updated, session})
	if err != nil {
		return err
	}
	out.Write(env[:len(env)-1])
	out.WriteString(`,"part":`)
	out.Write(head[:len(head)-1])
	if body.Len() > 2 {
		out.WriteByte(',')
	}
	out.Write(body.Bytes()[1:])
	out.WriteString("}\n")
	return nil
}

// The lines the renderer adds to run.ts's envelopes.
type (
	// ocSessionLine opens the session.
	ocSessionLine struct {
		Type      string `json:"type"`
		SessionID string `json:"sessionID"`
		Directory string `json:"directory"`
		Title     string `json:"title"`
		Timestamp int64  `json:"timestamp"`
	}
	// ocPromptLine is what the person wrote.
	ocPromptLine struct {
		Type      string `json:"type"`
		SessionID string `json:"sessionID"`
		Timestamp int64  `json:"timestamp"`
		Text      string `json:"text"`
	}
	// ocMessageLine opens an assistant message: the model it asked.
	ocMessageLine struct {
		Type      string `json:"type"`
		SessionID string `json:"sessionID"`
		MessageID string `json:"messageID"`
		Model     string `json:"model"`
		Timestamp int64  `json:"timestamp"`
	}
	// ocErrorLine is run.ts's error envelope.
	ocErrorLine struct {
		Type      string          `json:"type"`
		Timestamp int64           `json:"timestamp"`
		SessionID string          `json:"sessionID"`
		Error     json.RawMessage `json:"error"`
	}
)

// opencodeHistoryParser reads a rendered opencode session: run.ts's
// envelopes, read by opencode's stream parser, and the renderer's own
// session, prompt and message lines.
type opencodeHistoryParser struct{}

// Kind implements Parser.
func (opencodeHistoryParser) Kind() agents.Kind { return agents.OpenCodeHistory }

// NewStream implements Parser.
func (opencodeHistoryParser) NewStream() agents.Stream { return &opencodeHistoryStream{} }

// EndsWithResult implements Parser: a session ends as its last message
// leaves it.
func (opencodeHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: a render is never met on disk.
func (opencodeHistoryParser) Claims([]byte) bool { return false }

// opencodeHistoryStream is opencode's stream parser with the renderer's
// lines added, and the model of each assistant message put on its
// events.
type opencodeHistoryStream struct {
	inner opencodeStream
	model string
}

// Line implements Stream.
func (s *opencodeHistoryStream) Line(l agents.Line, emit agents.Emit) bool {
	b := l.Bytes
	switch {
	case IsHistoryLine(b):
		var r ocSessionLine
		if json.Unmarshal(b, &r) != nil {
			return false
		}
		s.inner.session = r.SessionID
		emit(&event.Event{SessionID: r.SessionID, Timestamp: agents.EpochMS(&r.Timestamp),
			Update: event.Update{SessionUpdate: event.SessionStart, Cwd: r.Directory, Title: r.Title}})
		return true
	case bytes.HasPrefix(b, []byte(`{"type":"prompt",`)):
		var r ocPromptLine
		if json.Unmarshal(b, &r) != nil {
			return false
		}
		// The session went on after an error held so far.
		s.inner.flush(emit, false)
		emit(&event.Event{SessionID: r.SessionID, Timestamp: agents.EpochMS(&r.Timestamp),
			Update: event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(r.Text)}})
		return true
	case bytes.HasPrefix(b, []byte(`{"type":"message",`)):
		var r ocMessageLine
		if json.Unmarshal(b, &r) != nil {
			return false
		}
		s.model = r.Model
		return true
	}
	if s.model == "" {
		return s.inner.Line(l, emit)
	}
	return s.inner.Line(l, func(ev *event.Event) {
		if ev.Model == "" {
			ev.Model = s.model
		}
		emit(ev)
	})
}

// Finish implements Stream.
func (s *opencodeHistoryStream) Finish(emit agents.Emit) { s.inner.Finish(emit) }
