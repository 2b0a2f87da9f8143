package cursor

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/historydb"
)

// cursorDirs is where cursor-agent keeps its chats on Linux and macOS
// alike: <data>/chats/<workspace hash>/<chat id>/store.db, its data
// folder $CURSOR_DATA_DIR when set to more than blanks, else ~/.cursor
// (getDataDir in cursor-agent's bundle).
func cursorDirs(getenv func(string) string, home string) []string {
	if data := getenv("CURSOR_DATA_DIR"); strings.TrimSpace(data) != "" {
		return []string{filepath.Join(data, "chats")}
	}
	if home == "" {
		return nil
	}
	return []string{filepath.Join(home, ".cursor", "chats")}
}

// cursorSessions lists the chats under the chats folder, each its own
// database (<workspace hash>/<chat id>/store.db) and its own session.
func cursorSessions(root string) ([]agents.StoredSession, func(), error) {
	dbs, _ := filepath.Glob(filepath.Join(root, "*", "*", "store.db"))
	var out []agents.StoredSession
	var dones []func()
	var errs []error
	for _, path := range dbs {
		ss, done, err := agents.DBSessions(path, cursorDBList(path))
		out = append(out, ss...)
		if done != nil {
			dones = append(dones, done)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return out, agents.JoinDone(dones), agents.JoinErrs(errs)
}

// cursorRender renders a chat again by its key (its store.db, "#", its id).
func cursorRender(key string) ([]byte, bool, error) {
	path, id, ok := agents.SplitStoredKey(key)
	if !ok || filepath.Base(path) != "store.db" || filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(path)))) != "chats" {
		return nil, false, nil
	}
	lines, err := agents.DBRender(path, func(db agents.Queryer) ([]byte, error) {
		c, err := readCursorChat(db, path)
		if err != nil || c == nil || c.id != id {
			return nil, err
		}
		return c.lines(db)
	})
	return lines, true, err
}

// cursorDBList lists the one chat of a cursor-agent database. Its change
// token is the count and bytes of its blobs (the store is
// content-addressed: every change adds blobs, a new root among them) and
// the database file's modification time.
func cursorDBList(path string) func(db agents.Queryer) ([]agents.StoredSession, error) {
	return func(db agents.Queryer) ([]agents.StoredSession, error) {
		c, err := readCursorChat(db, path)
		if err != nil || c == nil {
			return nil, err
		}
		s := agents.StoredSession{ID: c.id, Project: c.workspace, Size: c.size, MTime: c.updated}
		s.Lines = func() ([]byte, error) { return c.lines(db) }
		return []agents.StoredSession{s}, nil
	}
}

// cursorChat is what a chat's database says of it: the meta row (hex of
// a JSON object naming the root blob), and the root blob, a protobuf
// message whose field 1 repeats the ids of the chat's message blobs in
// order and whose field 9 is the workspace's file:// URI.
type cursorChat struct {
	id, workspace string
	meta          json.RawMessage
	msgIDs        []string
	size, updated int64
}

// readCursorChat reads a chat's meta row and root blob; nil for a
// database with no chat in it yet (no meta row, no root).
func readCursorChat(db agents.Queryer, path string) (*cursorChat, error) {
	ctx := context.Background()
	var metaHex string
	err := db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = '0'`).Scan(&metaHex)
	if errors.Is(err, historydb.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	metaJSON, err := hex.DecodeString(strings.TrimSpace(metaHex))
	if err != nil || !json.Valid(metaJSON) {
		return nil, nil
	}
	var meta struct {
		AgentID   string `json:"agentId"`
		Root      string `json:"latestRootBlobId"`
		CreatedAt int64  `json:"createdAt"`
	}
	_ = json.Unmarshal(metaJSON, &meta)
	// The folder is named by the chat's id; the meta row names it too.
	c := &cursorChat{id: agents.FirstNonEmpty(meta.AgentID, filepath.Base(filepath.Dir(path))), updated: meta.CreatedAt}
	// The meta row's blobEncryptionKey is a secret: it is not rendered.
	var m map[string]json.RawMessage
	if json.Unmarshal(metaJSON, &m) == nil {
		delete(m, "blobEncryptionKey")
		c.meta, _ = json.Marshal(m)
	}
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) + COALESCE(SUM(LENGTH(data)), 0) FROM blobs`).Scan(&c.size); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err == nil && fi.ModTime().UnixMilli() > c.updated {
		c.updated = fi.ModTime().UnixMilli()
	}
	var root []byte
	err = db.QueryRowContext(ctx, `SELECT data FROM blobs WHERE id = ?`, meta.Root).Scan(&root)
	if err != nil && !errors.Is(err, historydb.ErrNoRows) {
		return nil, err
	}
	for f := range protoFields(root) {
		switch {
		case f.num == 1 && len(f.bytes) == 32:
			c.msgIDs = append(c.msgIDs, hex.EncodeToString(f.bytes))
		case f.num == 9 && c.workspace == "":
			if u, err := url.Parse(string(f.bytes)); err == nil && u.Scheme == "file" && filepath.IsAbs(u.Path) {
				c.workspace = filepath.Clean(u.Path)
			}
		}
	}
	return c, nil
}

// lines renders the chat as the lines its history parser reads:
// {"meta": ..., "workspace": ...}, then {"message": ...}
// for each of the root's message blobs that is JSON, in order. The
// render is sift's: the database holds blobs.
func (c *cursorChat) lines(db agents.Queryer) ([]byte, error) {
	var out bytes.Buffer
	head, err := json.Marshal(map[string]any{"meta": c.meta, "workspace": c.workspace})
	if err != nil {
		return nil, err
	}
	out.Write(head)
	out.WriteByte('\n')
	for _, id := range c.msgIDs {
		var data []byte
		err := db.QueryRowContext(context.Background(), `SELECT data FROM blobs WHERE id = ?`, id).Scan(&data)
		if errors.Is(err, historydb.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		data = bytes.TrimSpace(data)
		if len(data) == 0 || data[0] != '{' || !json.Valid(data) {
			continue
		}
		out.WriteString(`{"message":`)
		var compact bytes.Buffer
		if json.Compact(&compact, data) != nil {
			continue
		}
		out.Write(compact.Bytes())
		out.WriteString("}\n")
	}
	return out.Bytes(), nil
}

// protoField is one top-level field of a protobuf message: its number
// and, for a length-delimited field, its bytes.
type protoField struct {
	num   uint64
	bytes []byte
}

// protoFields yields the top-level fields of a protobuf message, stopping
// at the first malformed one.
func protoFields(b []byte) func(yield func(protoField) bool) {
	return func(yield func(protoField) bool) {
		for len(b) > 0 {
			key, n := binary.Uvarint(b)
			if n <= 0 {
				return
			}
			b = b[n:]
			f := protoField{num: key >> 3}
			switch key & 7 {
			case 0:
				if _, n = binary.Uvarint(b); n <= 0 {
					return
				}
				b = b[n:]
			case 1:
				if len(b) < 8 {
					return
				}
				b = b[8:]
			case 5:
				if len(b) < 4 {
					return
				}
				b = b[4:]
			case 2:
				l, n := binary.Uvarint(b)
				if n <= 0 || l > uint64(len(b)-n) {
					return
				}
				f.bytes, b = b[n:n+int(l)], b[n+int(l):]
			default:
				return
			}
			if !yield(f) {
				return
			}
		}
	}
}

// cursorHistoryParser reads a rendered cursor-agent chat (cursorChat.lines).
type cursorHistoryParser struct{}

// Kind implements Parser.
func (cursorHistoryParser) Kind() agents.Kind { return agents.CursorHistory }

// NewStream implements Parser.
func (cursorHistoryParser) NewStream() agents.Stream { return &cursorHistoryStream{} }

// EndsWithResult implements Parser.
func (cursorHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: a render is never met on disk.
func (cursorHistoryParser) Claims([]byte) bool { return false }

// cursorLine is one rendered line: the chat's head, or a message (the
// AI SDK's message shape: a role and a string or a list of parts).
type cursorLine struct {
	Meta *struct {
		AgentID   string `json:"agentId"`
		Name      string `json:"name"`
		CreatedAt int64  `json:"createdAt"`
		Model     string `json:"lastUsedModel"`
	} `json:"meta"`
	Message *struct {
		Role            string          `json:"role"`
		Content         json.RawMessage `json:"content"`
		ProviderOptions struct {
			Cursor struct {
				Result *struct {
					IsError bool `json:"isError"`
				} `json:"highLevelToolCallResult"`
			} `json:"cursor"`
		} `json:"providerOptions"`
	} `json:"message"`
}

// cursorPart is one part of a message's content.
type cursorPart struct {
	Type            string          `json:"type"`
	Text            string          `json:"text"`
	ToolCallID      string          `json:"toolCallId"`
	ToolName        string          `json:"toolName"`
	Args            json.RawMessage `json:"args"`
	Result          json.RawMessage `json:"result"`
	ProviderOptions struct {
		Cursor struct {
			ModelName string `json:"modelName"`
		} `json:"cursor"`
	} `json:"providerOptions"`
}

// cursorQuery is what the person typed: cursor-agent wraps it in
// <user_query> inside a user message; the other user messages are the
// context it adds (<user_info> and the like).
var cursorQuery = regexp.MustCompile(`(?s)<user_query>\s*(.*?)\s*</user_query>`)

type cursorHistoryStream struct {
	id, model string
	// ts is the chat's creation: the store keeps no time per message
	// (the <timestamp> cursor-agent puts in a prompt is to the minute),
	// so every event has it.
	ts   time.Time
	line agents.Line
	// replied: the last message is the agent's reply with no tool call
	// after it (the store records no end of a turn).
	replied bool
	reply   string
}

// Line implements Stream.
func (s *cursorHistoryStream) Line(l agents.Line, emit agents.Emit) bool {
	var r cursorLine
	if json.Unmarshal(l.Bytes, &r) != nil {
		return false
	}
	s.line = l
	switch {
	case r.Meta != nil:
		s.id, s.model = r.Meta.AgentID, r.Meta.Model
		s.ts = time.UnixMilli(r.Meta.CreatedAt).UTC()
		title := r.Meta.Name
		if title == "New Agent" { // cursor-agent's name for a chat it has not named
			title = ""
		}
		emit(&event.Event{SessionID: s.id, Timestamp: s.ts, Update: event.Update{SessionUpdate: event.SessionStart, Title: title}})
	case r.Message != nil:
		s.message(r, emit)
	default:
		return false
	}
	return true
}

// message emits a message's parts: the prompt, what the agent thought and
// said, its tool calls, and their results.
func (s *cursorHistoryStream) message(r cursorLine, emit agents.Emit) {
	m := r.Message
	var parts []cursorPart
	var text string
	if json.Unmarshal(m.Content, &text) == nil {
		parts = []cursorPart{{Type: "text", Text: text}}
	} else {
		_ = json.Unmarshal(m.Content, &parts)
	}
	put := func(u event.Update) {
		ev := &event.Event{SessionID: s.id, Timestamp: s.ts, Update: u}
		if m.Role == "assistant" {
			ev.Model = s.model
		}
		emit(ev)
	}
	for i := range parts {
		p := &parts[i]
		switch m.Role {
		case "user":
			if q := cursorQuery.FindStringSubmatch(p.Text); q != nil && q[1] != "" {
				s.replied = false
				put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(q[1])})
			}
		case "assistant":
			if p.ProviderOptions.Cursor.ModelName != "" {
				s.model = p.ProviderOptions.Cursor.ModelName
			}
			switch {
			case p.Type == "reasoning" && strings.TrimSpace(p.Text) != "":
				put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(p.Text)})
			case p.Type == "text" && strings.TrimSpace(p.Text) != "":
				s.replied, s.reply = true, p.Text
				put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(p.Text)})
			case p.Type == "tool-call":
				s.replied = false
				u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: p.ToolCallID, Status: event.StatusPending}
				agents.DescribeTool(&u, p.ToolName, p.Args)
				put(u)
			}
		case "tool":
			if p.Type != "tool-result" {
				continue
			}
			out := toolText(p.Result)
			u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: p.ToolCallID, Status: event.StatusCompleted}
			if out != "" {
				u.Content = event.Text(out)
			}
			if res := m.ProviderOptions.Cursor.Result; res != nil && res.IsError {
				u.Status, u.Message = event.StatusFailed, agents.FirstLine(out)
			}
			put(u)
		}
	}
}

// toolText is a tool result as text: a string as it is, anything else as
// its JSON.
func toolText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return string(raw)
}

// Finish implements Stream: a chat whose last message is the agent's
// reply with no tool call after it is one cursor-agent finished
// answering. The store records no tokens (its root keeps only a snapshot
// of the context window's contents) and no end of a turn.
func (s *cursorHistoryStream) Finish(emit agents.Emit) {
	if s.replied {
		emit(&event.Event{SessionID: s.id, Timestamp: s.ts, Line: s.line.No, Offset: s.line.Offset,
			Update: event.Update{SessionUpdate: event.Result, IsError: event.Bool(false), Subtype: "reply", Text: s.reply}})
	}
}
