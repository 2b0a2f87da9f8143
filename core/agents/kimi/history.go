package kimi

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// kimiHistoryParser reads Kimi CLI's wire logs, after kimi-cli's
// src/kimi_cli/wire/file.py and wire/types.py: a header {"type":
// "metadata", "protocol_version"}, then one WireMessageRecord a line,
// {"timestamp": <Unix seconds>, "message": {"type", "payload"}}, the
// messages its wire mode sends: TurnBegin (user_input), StepBegin,
// ContentPart (text or think), ToolCall (an OpenAI function call whose
// arguments are JSON text), ToolResult (return_value {is_error, output,
// message}), StatusUpdate (token_usage {input_other, output,
// input_cache_read, input_cache_creation}, message_id), StepInterrupted,
// TurnEnd, and bookkeeping (approvals, hooks, compaction, MCP loading).
// Python's json.dumps writes them, with a space after each colon.
type kimiHistoryParser struct{}

// Kind implements Parser.
func (kimiHistoryParser) Kind() agents.Kind { return agents.KimiHistory }

// NewStream implements Parser.
func (kimiHistoryParser) NewStream() agents.Stream { return &kimiHistoryStream{} }

// EndsWithResult implements Parser: the log has no result line.
func (kimiHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: the header with its protocol version, or a
// record of a Unix-seconds timestamp and a message envelope.
func (kimiHistoryParser) Claims(line []byte) bool {
	if agents.HasType(line, "metadata") && bytes.Contains(line, []byte(`"protocol_version"`)) {
		return true
	}
	return bytes.HasPrefix(line, []byte(`{"timestamp": `)) && bytes.Contains(line, []byte(`"message": {"type": `)) &&
		bytes.Contains(line, []byte(`"payload"`))
}

// kimiRecord is one WireMessageRecord, as far as sift reads it.
type kimiRecord struct {
	Type      string   `json:"type"`
	Timestamp *float64 `json:"timestamp"`
	Message   *struct {
		Type    string      `json:"type"`
		Payload kimiPayload `json:"payload"`
	} `json:"message"`
}

// kimiPayload holds the fields of the messages sift reads.
type kimiPayload struct {
	// TurnBegin
	UserInput json.RawMessage `json:"user_input"`
	// ContentPart
	Type  string `json:"type"`
	Text  string `json:"text"`
	Think string `json:"think"`
	// ToolCall
	ID       string `json:"id"`
	Function *struct {
		Name      string  `json:"name"`
		Arguments *string `json:"arguments"`
	} `json:"function"`
	// ToolResult
	ToolCallID  string `json:"tool_call_id"`
	ReturnValue *struct {
		IsError bool            `json:"is_error"`
		Output  json.RawMessage `json:"output"`
		Message string          `json:"message"`
	} `json:"return_value"`
	// StatusUpdate
	MessageID string `json:"message_id"`
	Usage     *struct {
		InputOther    *int64 `json:"input_other"`
		Output        *int64 `json:"output"`
		CacheRead     *int64 `json:"input_cache_read"`
		CacheCreation *int64 `json:"input_cache_creation"`
		Total         *int64 `json:"total"`
	} `json:"token_usage"`
}

type kimiHistoryStream struct {
	started bool
	// names are the tools of the calls so far, by call id.
	names map[string]string
}

// Line implements Stream.
func (s *kimiHistoryStream) Line(l agents.Line, emit agents.Emit) bool {
	var r kimiRecord
	if json.Unmarshal(l.Bytes, &r) != nil {
		return false
	}
	if r.Type == "metadata" {
		return true
	}
	if r.Message == nil || r.Message.Type == "" || r.Timestamp == nil {
		return false
	}
	base := event.Event{Timestamp: unixSeconds(*r.Timestamp)}
	put := func(u event.Update) {
		ev := base
		ev.Update = u
		emit(&ev)
	}
	if !s.started {
		s.started = true
		put(event.Update{SessionUpdate: event.SessionStart})
	}
	p := &r.Message.Payload
	switch r.Message.Type {
	case "TurnBegin":
		if t := kimiTexts(p.UserInput); t != "" {
			put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(t)})
		}
	case "ContentPart":
		switch {
		case p.Type == "think" && p.Think != "":
			put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(p.Think)})
		case p.Type == "text" && p.Text != "":
			put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(p.Text)})
		}
	case "ToolCall":
		if p.Function == nil {
			return true
		}
		u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: p.ID, Status: event.StatusPending}
		agents.DescribeTool(&u, p.Function.Name, kimiArgs(p.Function.Arguments))
		if s.names == nil {
			s.names = map[string]string{}
		}
		s.names[p.ID] = p.Function.Name
		put(u)
	case "ToolResult":
		put(s.toolResult(p))
	case "StatusUpdate":
		if up, ok := kimiUsage(p); ok {
			base.MessageID = p.MessageID
			put(up)
		}
	case "StepInterrupted":
		put(event.Update{SessionUpdate: event.Error, Message: "step interrupted"})
	}
	return true
}

// kimiUsage is a StatusUpdate's token usage, read as ccusage's kimi
// adapter reads it: input_other is the uncached prompt, so the prompt sift
// counts adds both cache shares, which keep Anthropic's names
// (input_tokens, cache_creation_input_tokens) for the usage report to
// count them apart; a total beyond the parts counts as output
// (countTotal); a usage of no tokens is none
// (skips_malformed_and_zero_token_wire_lines).
func kimiUsage(p *kimiPayload) (event.Update, bool) {
	u := p.Usage
	if u == nil {
		return event.Update{}, false
	}
	prompt, completion := agents.CountTotal(agents.SumPresent(u.InputOther, u.CacheRead, u.CacheCreation), u.Output, u.Total,
		u.InputOther, u.Output, u.CacheRead, u.CacheCreation)
	if sum := agents.SumPresent(prompt, completion); sum == nil || *sum == 0 {
		return event.Update{}, false
	}
	up := event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall, CompletionTokens: completion,
		CachedTokens: u.CacheRead, PromptTokens: prompt}
	extra := map[string]int64{"input_tokens": 0}
	agents.PutPresent(extra, "input_tokens", u.InputOther)
	agents.PutPresent(extra, "cache_creation_input_tokens", u.CacheCreation)
	agents.PutPresent(extra, "total", u.Total)
	up.UsageExtra = extra
	return up, true
}

// toolResult is a ToolResult: its output, failed when is_error says so,
// with the tool's message as the reason.
func (s *kimiHistoryStream) toolResult(p *kimiPayload) event.Update {
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: p.ToolCallID, ToolName: s.names[p.ToolCallID],
		Status: event.StatusCompleted}
	rv := p.ReturnValue
	if rv == nil {
		return u
	}
	text := kimiTexts(rv.Output)
	if len(rv.Output) > 0 && rv.Output[0] == '[' {
		u.RawOutput = rv.Output
	}
	if text == "" && rv.IsError {
		text = rv.Message
	}
	if text != "" {
		u.Content = event.Text(text)
	}
	if rv.IsError {
		u.Status, u.Message = event.StatusFailed, rv.Message
	}
	return u
}

// kimiTexts reads a TurnBegin's user_input or a ToolResult's output: a
// string, or content parts whose text parts it joins.
func kimiTexts(raw json.RawMessage) string {
	if t, ok := agents.JSONText(raw); ok {
		return t
	}
	var parts []kimiPart
	_ = json.Unmarshal(raw, &parts)
	var out []string
	for _, p := range parts {
		if p.Type == "text" && p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// kimiArgs reads a tool call's arguments, JSON text: a cut or malformed
// text is kept as the string it is.
func kimiArgs(a *string) json.RawMessage {
	if a == nil || *a == "" {
		return nil
	}
	if json.Valid([]byte(*a)) {
		return json.RawMessage(*a)
	}
	args, _ := json.Marshal(*a)
	return args
}

// unixSeconds is a timestamp of Unix seconds with a fraction, in UTC.
func unixSeconds(s float64) time.Time {
	if math.IsNaN(s) || math.IsInf(s, 0) || s <= 0 || s > 1e11 {
		return time.Time{}
	}
	sec, frac := math.Modf(s)
	return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC()
}

// Finish implements Stream.
func (s *kimiHistoryStream) Finish(agents.Emit) {}

// kimiHistoryDirs is the folder Kimi CLI keeps its sessions in: sessions
// under $KIMI_SHARE_DIR, else under ~/.kimi (kimi_cli/share.py).
func kimiHistoryDirs(getenv func(string) string, home string) []string {
	dir := getenv("KIMI_SHARE_DIR")
	if dir == "" && home != "" {
		dir = filepath.Join(home, ".kimi")
	}
	if dir == "" {
		return nil
	}
	return []string{filepath.Join(dir, "sessions")}
}

// kimiSession names a Kimi CLI session by its id: <work dir
// hash>/<session id>/wire.jsonl. Its work item is the hash's folder, which
// kimiProjects maps back to the work dir.
func kimiSession(parts []string) (workItem, name string, ok bool) {
	name = parts[len(parts)-1]
	if len(parts) != 3 || name != "wire.jsonl" {
		return "", name, false
	}
	return parts[0], parts[1] + ".jsonl", true
}

// kimiHistoryRoot is the sessions folder a wire log is under.
func kimiHistoryRoot(path string) string { return agents.UpDirs(path, 3) }

// kimiProjects maps the work dir hashes under sessions to the work dirs
// kimi.json beside it lists ({"work_dirs": [{path, kaos}]}): a folder is
// the MD5 of the path, prefixed by the KAOS name for one not local
// (kimi_cli/metadata.py).
func kimiProjects(root string) map[string]string {
	b, err := os.ReadFile(filepath.Join(filepath.Dir(root), "kimi.json"))
	if err != nil {
		return nil
	}
	var meta struct {
		WorkDirs []struct {
			Path string `json:"path"`
			KAOS string `json:"kaos"`
		} `json:"work_dirs"`
	}
	if json.Unmarshal(b, &meta) != nil {
		return nil
	}
	out := map[string]string{}
	for _, wd := range meta.WorkDirs {
		sum := md5.Sum([]byte(wd.Path))
		name := hex.EncodeToString(sum[:])
		if wd.KAOS != "" && wd.KAOS != "local" {
			name = wd.KAOS + "_" + name
		}
		out[name] = wd.Path
	}
	return out
}
