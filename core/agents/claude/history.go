package claude

import (
	"bytes"
	"strings"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// claudeHistoryParser reads Claude Code's on-disk transcripts. Their message
// lines are Claude-shaped, with camelCase keys, a timestamp on every line,
// request ids, and one line per content block of a message.
type claudeHistoryParser struct{}

func (claudeHistoryParser) Kind() agents.Kind { return agents.ClaudeHistory }

// Claims claims transcript lines: they carry sessionId and parentUuid, or
// are file-history snapshots. Qwen Code's chat records have those keys too
// (isQwenRecord).
func (claudeHistoryParser) Claims(line []byte) bool {
	if agents.HasType(line, "file-history-snapshot") {
		return true
	}
	return bytes.Contains(line, []byte(`"sessionId"`)) && bytes.Contains(line, []byte(`"parentUuid"`)) && !IsQwenRecord(line)
}

func (claudeHistoryParser) NewStream() agents.Stream {
	s := newClaudeStream(agents.ClaudeHistory)
	s.history = true
	s.counted = map[string]bool{}
	return s
}

// EndsWithResult implements Parser: a transcript has no result line.
func (claudeHistoryParser) EndsWithResult() bool { return false }

// historyLine handles one transcript line: it fills the stream-json names
// from the camelCase ones, opens the session on its first line, and reads
// bookkeeping lines (snapshots, hook progress, summaries) quietly.
func (s *claudeStream) historyLine(cl *claudeLine, emit agents.Emit) bool {
	if cl.SessionID == "" {
		cl.SessionID = cl.SessionIDCamel
	}
	if len(cl.ToolUseResult) == 0 {
		cl.ToolUseResult = cl.ToolUseResultCamel
	}
	if !s.started && cl.SessionID != "" {
		s.started = true
		ev := event.Event{SessionID: cl.SessionID, Timestamp: agents.ISOTime(cl.Timestamp)}
		ev.Update = event.Update{SessionUpdate: event.SessionStart, Cwd: cl.Cwd, CLIVersion: cl.Version}
		if cl.AgentID != "" {
			ev.Extra = map[string]any{"agentId": cl.AgentID, "isSidechain": cl.IsSidechain}
		}
		emit(s.Event(&ev))
	}
	if cl.Type == "" && cl.Message != nil && cl.Message.Usage != nil {
		// A line with a message's usage but no type (written by some
		// builds and by tools that rewrite transcripts) is still a
		// model call: ccusage counts it too.
		cl.Type = "assistant"
	}
	switch cl.Type {
	case "assistant", "user":
		return s.dispatch(cl, emit)
	case "system":
		if cl.Subtype == "init" {
			return s.dispatch(cl, emit)
		}
		return true
	case "file-history-snapshot", "progress", "summary", "queue-operation", "custom-title", "tag",
		"attachment", "api-request", "api-request-shape", "api-request-blob", "tools-used", "last-prompt",
		"atis-latch", "cost-state":
		// Bookkeeping; Claude Code 2.1.3xx adds attachments (system
		// reminders, prompt snapshots), API request records and cost
		// state. None carries message usage, as ccusage counts it.
		return true
	}
	return false
}

// firstUsage reports whether a message's usage is seen for the first time,
// and the request id of a sidechain replay whose usage it replaces.
// Like ccusage, a message is counted once per message id and request id; a
// line lacking either is counted on its own.
//
// A sidechain (a /btw side question, a subagent) can replay a message of
// the main chain under a request id of its own; the main chain's usage is
// the one that counts (ccusage's rule since its Rust loader:
// keeps_parent_usage_when_sidechain_replays_message_with_new_request_id
// and refreshes_dedupe_indexes_when_parent_replaces_sidechain_replay). A
// replay after the main chain's message is not counted; a main-chain
// message after its replay is, and names the replay's request id, whose
// usage it replaces. ccusage 18.0.11, which keys by message and request
// id only, counts both.
func (s *claudeStream) firstUsage(cl *claudeLine, m *claudeMessage) (bool, string) {
	if m.ID != "" && cl.IsSidechain && s.counted[m.ID] {
		return false, ""
	}
	if m.ID == "" || cl.RequestID == "" {
		return true, ""
	}
	key := m.ID + ":" + cl.RequestID
	if s.counted[key] {
		return false, ""
	}
	s.counted[key] = true
	if cl.IsSidechain {
		if _, ok := s.replays[m.ID]; !ok {
			if s.replays == nil {
				s.replays = map[string]string{}
			}
			s.replays[strings.Clone(m.ID)] = strings.Clone(cl.RequestID)
		}
		return true, ""
	}
	s.counted[strings.Clone(m.ID)] = true
	replaced := s.replays[m.ID]
	if replaced != "" {
		delete(s.replays, m.ID)
	}
	return true, replaced
}

// quietHistoryLine reports, from its bytes alone, a bookkeeping line that
// historyLine reads quietly: hook and agent progress, attachments (system
// reminders, prompt snapshots of tens of KB) and bookkeeping records, a
// fifth of a transcript's lines and often most of its bytes. Such a line is
// not decoded. Claude Code writes a progress line's top-level
// `"type":"progress","data":{` and an attachment line's
// `"attachment":{"type":"…"` before any other object with a "type" key,
// so the first `"type":"` of the line tells them apart (unescaped quotes
// only occur around keys and strings). Anything else is decoded as usual.
func quietHistoryLine(b []byte) bool {
	if rest, ok := bytes.CutPrefix(b, []byte(`{"type":"`)); ok {
		// The bookkeeping types Claude Code writes first on a line,
		// each with its closing quote (api-request also opens
		// api-request-shape and api-request-blob).
		for _, t := range [...]string{`file-history-snapshot"`, `api-request`, `tools-used"`, `last-prompt"`,
			`atis-latch"`, `cost-state"`, `queue-operation"`, `custom-title"`, `tag"`} {
			if bytes.HasPrefix(rest, []byte(t)) {
				return true
			}
		}
		return false
	}
	head := b[:min(len(b), 2048)]
	i := firstTypeKey(head)
	if i < 0 {
		return false
	}
	return bytes.HasPrefix(head[i+len(`"type":"`):], []byte(`progress","data":{`)) ||
		bytes.HasSuffix(head[:i], []byte(`"attachment":{`))
}

// firstTypeKey returns the index of the first `"type":"` in b, or -1. It
// looks for `type":"` by its 't', which JSON has far fewer of than quotes,
// and then for the quote before it.
func firstTypeKey(b []byte) int {
	for i := 1; ; {
		j := bytes.Index(b[i:], []byte(`type":"`))
		if j < 0 {
			return -1
		}
		if i += j; b[i-1] == '"' {
			return i - 1
		}
		i++
	}
}

// IsQwenRecord reports whether a transcript line is a Qwen Code chat
// record rather than a Claude Code one: its message is Gemini Content
// (parts, the model role) or it carries one of Qwen's own fields.
func IsQwenRecord(line []byte) bool {
	for _, k := range [...]string{`"parts":[`, `"role":"model"`, `"usageMetadata"`, `"systemPayload"`,
		`"toolCallResult"`, `"provenance"`} {
		if bytes.Contains(line, []byte(k)) {
			return true
		}
	}
	return false
}
