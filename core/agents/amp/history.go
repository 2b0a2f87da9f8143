package amp

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// ampCreditUSD is what one Amp credit costs: Amp shows a thread's credits
// as dollars at 0.01 each (its formatter of credits, Amp 0.0.1767830505).
const ampCreditUSD = 0.01

// ampHistoryParser reads an Amp thread as AmpThreadLines renders it. The
// thread is {v, id, created (unix ms), title, env.initial.trees[{uri}],
// messages, usageLedger.events}; a message is {role (user, assistant,
// info), messageId, content: blocks, meta.sentAt, state, usage}. Content
// blocks are text, thinking, tool_use {id, name, input} and, in a user
// message, tool_result {toolUseID, run: {status (done, error, cancelled,
// rejected-by-user, in-progress, …), result, error, reason}}. An
// assistant's state is complete (stopReason end_turn, tool_use,
// max_tokens), cancelled, streaming or error {error: {message}}; its usage
// is {model, inputTokens (the uncached prompt), cacheCreationInputTokens,
// cacheReadInputTokens, outputTokens, credits, timestamp}. A ledger event
// is {id, timestamp, model, credits, tokens: {input, output}, operationType,
// fromMessageId, toMessageId}.
type ampHistoryParser struct{}

// Kind implements Parser.
func (ampHistoryParser) Kind() agents.Kind { return agents.AmpHistory }

// NewStream implements Parser.
func (ampHistoryParser) NewStream() agents.Stream {
	return &ampHistoryStream{cache: map[int64][2]int64{}}
}

// EndsWithResult implements Parser: a thread has no result line.
func (ampHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: the lines AmpThreadLines renders.
func (ampHistoryParser) Claims(line []byte) bool {
	return agents.HasType(line, "amp-thread") || agents.HasType(line, "amp-message") || agents.HasType(line, "amp-ledger")
}

// ampThread is a thread document as far as sift reads it.
type ampThread struct {
	ID      string            `json:"id"`
	Created int64             `json:"created"`
	Title   string            `json:"title"`
	Env     *ampEnv           `json:"env"`
	Msgs    []json.RawMessage `json:"messages"`
	Ledger  *struct {
		Events []json.RawMessage `json:"events"`
	} `json:"usageLedger"`
}

// ampEnv is the environment a thread started in: its workspace trees.
type ampEnv struct {
	Initial struct {
		Trees []struct {
			URI string `json:"uri"`
		} `json:"trees"`
	} `json:"initial"`
}

// ampHeader is the first line AmpThreadLines renders.
type ampHeader struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Created int64  `json:"created,omitempty"`
	Title   string `json:"title,omitempty"`
	Cwd     string `json:"cwd,omitempty"`
	// Ledger says the thread keeps a usage ledger: its events, not the
	// messages' usage, are the thread's tokens (as ccusage counts them).
	Ledger bool `json:"ledger,omitempty"`
}

// AmpThreadLines renders an Amp thread document as the lines its parser
// reads: a header {"type": "amp-thread", id, created, title, cwd, ledger},
// each message as {"type": "amp-message", "message": …}, each ledger
// event as {"type": "amp-ledger", "event": …} right after the assistant
// message its toMessageId names (the last one of that id), and the events
// that name none at the end.
func AmpThreadLines(doc []byte) ([]byte, error) {
	var th ampThread
	if err := json.Unmarshal(doc, &th); err != nil {
		return nil, err
	}
	h := ampHeader{Type: "amp-thread", ID: th.ID, Created: th.Created, Title: th.Title, Ledger: th.Ledger != nil && th.Ledger.Events != nil}
	if th.Env != nil && len(th.Env.Initial.Trees) > 0 {
		h.Cwd = ampTreePath(th.Env.Initial.Trees[0].URI)
	}
	var out bytes.Buffer
	head, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	out.Write(head)
	out.WriteByte('\n')
	// after[i] are the ledger events that follow message i.
	after := map[int][]json.RawMessage{}
	var rest []json.RawMessage
	if h.Ledger {
		last := map[int64]int{}
		for i, m := range th.Msgs {
			var id struct {
				Role string `json:"role"`
				ID   *int64 `json:"messageId"`
			}
			if json.Unmarshal(m, &id) == nil && id.Role == "assistant" && id.ID != nil {
				last[*id.ID] = i
			}
		}
		for _, ev := range th.Ledger.Events {
			var to struct {
				To *int64 `json:"toMessageId"`
			}
			_ = json.Unmarshal(ev, &to)
			if to.To != nil {
				if i, ok := last[*to.To]; ok {
					after[i] = append(after[i], ev)
					continue
				}
			}
			rest = append(rest, ev)
		}
	}
	put := func(prefix string, raw json.RawMessage) error {
		out.WriteString(prefix)
		if err := json.Compact(&out, raw); err != nil {
			return err
		}
		out.WriteString("}\n")
		return nil
	}
	for i, m := range th.Msgs {
		if err := put(`{"type":"amp-message","message":`, m); err != nil {
			return nil, err
		}
		for _, ev := range after[i] {
			if err := put(`{"type":"amp-ledger","event":`, ev); err != nil {
				return nil, err
			}
		}
	}
	for _, ev := range rest {
		if err := put(`{"type":"amp-ledger","event":`, ev); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}

// ampTreePath is the folder a workspace tree's file:// URI names; "" for
// any other URI.
func ampTreePath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return ""
	}
	return u.Path
}

// ampLine is one rendered line, as far as sift reads it.
type ampLine struct {
	ampHeader
	Message *ampMessage     `json:"message"`
	Event   *ampLedgerEvent `json:"event"`
}

// ampMessage is one message of a thread.
type ampMessage struct {
	Role      string          `json:"role"`
	MessageID json.RawMessage `json:"messageId"`
	Content   json.RawMessage `json:"content"`
	Timestamp string          `json:"timestamp"`
	Model     string          `json:"model"`
	Meta      *struct {
		SentAt int64 `json:"sentAt"`
	} `json:"meta"`
	State *struct {
		Type       string `json:"type"`
		StopReason string `json:"stopReason"`
		Error      *struct {
			Message string `json:"message"`
		} `json:"error"`
	} `json:"state"`
	Usage *ampUsage `json:"usage"`
}

// ampUsage is an assistant message's usage.
type ampUsage struct {
	Model         string   `json:"model"`
	Input         *int64   `json:"inputTokens"`
	Output        *int64   `json:"outputTokens"`
	CacheCreation *int64   `json:"cacheCreationInputTokens"`
	CacheRead     *int64   `json:"cacheReadInputTokens"`
	Total         *int64   `json:"totalTokens"`
	Credits       *float64 `json:"credits"`
	Timestamp     string   `json:"timestamp"`
}

// ampLedgerEvent is one event of a thread's usage ledger.
type ampLedgerEvent struct {
	Timestamp string   `json:"timestamp"`
	Model     string   `json:"model"`
	Credits   *float64 `json:"credits"`
	Tokens    *struct {
		Input  *int64 `json:"input"`
		Output *int64 `json:"output"`
		Total  *int64 `json:"total"`
	} `json:"tokens"`
	ToMessageID *int64 `json:"toMessageId"`
}

// ampBlock is one content block of a message.
type ampBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"toolUseID"`
	Run       *struct {
		Status string          `json:"status"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
		Reason string          `json:"reason"`
	} `json:"run"`
}

type ampHistoryStream struct {
	// ledger says the thread's tokens are its ledger's.
	ledger bool
	// cache holds each assistant message's cache write and read, by its
	// messageId, for the ledger events that name it.
	cache map[int64][2]int64
	// at is the time of the last line that had one: Amp stamps no time
	// on a tool result.
	at time.Time
}

// Line implements Stream.
func (s *ampHistoryStream) Line(l agents.Line, emit agents.Emit) bool {
	var e ampLine
	if json.Unmarshal(l.Bytes, &e) != nil {
		return false
	}
	switch e.Type {
	case "amp-thread":
		s.ledger = e.Ledger
		if e.Created > 0 {
			s.at = time.UnixMilli(e.Created).UTC()
		}
		emit(&event.Event{Timestamp: s.at, SessionID: e.ID,
			Update: event.Update{SessionUpdate: event.SessionStart, Cwd: e.Cwd}})
	case "amp-message":
		if e.Message == nil {
			return false
		}
		s.message(e.Message, emit)
	case "amp-ledger":
		if e.Event == nil {
			return false
		}
		s.ledgerEvent(e.Event, emit)
	default:
		return false
	}
	return true
}

// message emits one message: a prompt and tool results, or a response.
func (s *ampHistoryStream) message(m *ampMessage, emit agents.Emit) {
	switch {
	case m.Meta != nil && m.Meta.SentAt > 0:
		s.at = time.UnixMilli(m.Meta.SentAt).UTC()
	case m.Usage != nil && !agents.ISOTime(m.Usage.Timestamp).IsZero():
		s.at = agents.ISOTime(m.Usage.Timestamp)
	}
	model := ""
	if m.Usage != nil {
		model = m.Usage.Model
	}
	if model == "" {
		model = m.Model
	}
	put := func(u event.Update, extra map[string]any) {
		emit(&event.Event{Timestamp: s.at, Model: model, Update: u, Extra: extra})
	}
	var blocks []ampBlock
	if t, ok := agents.JSONText(m.Content); ok {
		blocks = []ampBlock{{Type: "text", Text: t}}
	} else {
		_ = json.Unmarshal(m.Content, &blocks)
	}
	switch m.Role {
	case "user":
		s.user(blocks, put)
	case "assistant":
		s.assistant(m, blocks, put)
	default:
		// info: context Amp adds (AGENTS.md, a summary); no turn.
	}
}

// user emits a user message's tool results, then its text as the prompt.
func (s *ampHistoryStream) user(blocks []ampBlock, put func(event.Update, map[string]any)) {
	for i := range blocks {
		if b := &blocks[i]; b.Type == "tool_result" && b.Run != nil {
			if u, ok := ampResult(b); ok {
				put(u, nil)
			}
		}
	}
	if t := agents.JoinTexts(blocks, func(b *ampBlock) string {
		if b.Type != "text" {
			return ""
		}
		return strings.TrimSpace(b.Text)
	}); t != "" {
		put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(t)}, nil)
	}
}

// ampResult is the update a tool result's run makes; ok is false for a
// run still open (queued, in progress, waiting for the user).
func ampResult(b *ampBlock) (event.Update, bool) {
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: b.ToolUseID, Status: event.StatusCompleted}
	r := b.Run
	switch r.Status {
	case "done":
		text, code := ampResultText(r.Result)
		if text != "" {
			u.Content = event.Text(text)
		}
		if code != nil {
			u.ExitCode = code
			if *code != 0 {
				u.Status, u.Message = event.StatusFailed, "exit "+strconv.Itoa(*code)
			}
		}
	case "error":
		msg, _ := ampResultText(r.Error)
		var e struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(r.Error, &e) == nil && e.Message != "" {
			msg = e.Message
		}
		u.Status, u.Message = event.StatusFailed, agents.FirstLine(msg)
		if msg != "" {
			u.Content = event.Text(msg)
		}
	case "cancelled", "rejected-by-user":
		msg := r.Reason
		if msg == "" {
			msg = strings.ReplaceAll(r.Status, "-", " ")
		}
		u.Status, u.Message = event.StatusFailed, agents.FirstLine(msg)
	default:
		return u, false
	}
	return u, true
}

// ampResultText is a run's result as text (a string as it is; a command's
// {output, exitCode} its output; any other value as its JSON) and the exit
// code it records.
func ampResultText(raw json.RawMessage) (string, *int) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if t, ok := agents.JSONText(raw); ok {
		return t, nil
	}
	var cmd struct {
		Output   *string `json:"output"`
		ExitCode *int    `json:"exitCode"`
	}
	if raw[0] == '{' && json.Unmarshal(raw, &cmd) == nil && cmd.Output != nil {
		return *cmd.Output, cmd.ExitCode
	}
	return string(raw), cmd.ExitCode
}

// assistant emits a response: thinking, text, calls, its usage (when the
// thread keeps no ledger) and the error that ended it.
func (s *ampHistoryStream) assistant(m *ampMessage, blocks []ampBlock, put func(event.Update, map[string]any)) {
	if id, ok := ampMessageID(m.MessageID); ok && m.Usage != nil {
		s.cache[id] = [2]int64{ampCount(m.Usage.CacheCreation), ampCount(m.Usage.CacheRead)}
	}
	if t := agents.JoinTexts(blocks, func(b *ampBlock) string {
		if b.Type != "thinking" {
			return ""
		}
		return b.Thinking
	}); t != "" {
		put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(t)}, nil)
	}
	if t := agents.JoinTexts(blocks, func(b *ampBlock) string {
		if b.Type != "text" {
			return ""
		}
		return b.Text
	}); t != "" {
		var extra map[string]any
		if r := ampStopReason(m); r != "" {
			extra = map[string]any{"stop_reason": r}
		}
		put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(t)}, extra)
	}
	for i := range blocks {
		if b := &blocks[i]; b.Type == "tool_use" {
			u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: b.ID, Status: event.StatusPending}
			agents.DescribeTool(&u, b.Name, b.Input)
			put(u, nil)
		}
	}
	if u := m.Usage; u != nil && !s.ledger {
		// ccusage counts a message's usage only with a time and a model.
		if !agents.ISOTime(ampFirst(u.Timestamp, m.Timestamp)).IsZero() && ampFirst(u.Model, m.Model) != "" {
			if up, ok := ampUsageUpdate(u.Input, u.Output, u.CacheCreation, u.CacheRead, u.Total, u.Credits); ok {
				put(up, nil)
			}
		}
	}
	if st := m.State; st != nil && st.Type == "error" {
		msg := "error"
		if st.Error != nil && st.Error.Message != "" {
			msg = st.Error.Message
		}
		put(event.Update{SessionUpdate: event.Error, Message: msg}, nil)
	}
}

// ampStopReason is the stop reason a response's state names, as the
// summary reads it: end_turn ended the turn; aborted (cancelled) and
// streaming (cut off while written) did not.
func ampStopReason(m *ampMessage) string {
	st := m.State
	switch {
	case st == nil:
		return ""
	case st.Type == "complete":
		return st.StopReason
	case st.Type == "cancelled":
		return "aborted"
	case st.Type == "streaming":
		return "streaming"
	}
	return ""
}

// ledgerEvent emits a ledger event's usage when the thread keeps a ledger:
// its input and output, the cache of the assistant message it names, and
// its credits, as ccusage's amp adapter reads them (an event without a
// time, a model or tokens is skipped, as there).
func (s *ampHistoryStream) ledgerEvent(ev *ampLedgerEvent, emit agents.Emit) {
	if !s.ledger || ev.Tokens == nil || ev.Model == "" {
		return
	}
	t := agents.ISOTime(ev.Timestamp)
	if t.IsZero() {
		return
	}
	var cw, cr *int64
	if ev.ToMessageID != nil {
		if c, ok := s.cache[*ev.ToMessageID]; ok {
			cw, cr = &c[0], &c[1]
		}
	}
	up, ok := ampUsageUpdate(ev.Tokens.Input, ev.Tokens.Output, cw, cr, ev.Tokens.Total, ev.Credits)
	if !ok {
		return
	}
	emit(&event.Event{Timestamp: t, Model: ev.Model, Update: up})
}

// ampUsageUpdate is the usage of one request: input is the uncached
// prompt, as Anthropic counts it, so the prompt sift counts adds both cache
// shares. A total naming more than the parts is the rest of the output (a
// total alone is all output), as ccusage's total fallback counts it; a
// request of no tokens at all is none (ok false), as ccusage skips it.
// Credits are Amp's cost.
func ampUsageUpdate(input, output, cacheWrite, cacheRead, total *int64, credits *float64) (event.Update, bool) {
	known := ampCount(input) + ampCount(output) + ampCount(cacheWrite) + ampCount(cacheRead)
	if total != nil && *total > known {
		output = event.Int64(ampCount(output) + *total - known)
		known = *total
	}
	if known == 0 {
		return event.Update{}, false
	}
	up := event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall, CompletionTokens: event.Int64(ampCount(output)),
		CachedTokens: cacheRead, PromptTokens: event.Int64(ampCount(input) + ampCount(cacheWrite) + ampCount(cacheRead))}
	extra := map[string]int64{"input_tokens": ampCount(input)}
	if cacheWrite != nil {
		extra["cache_creation_input_tokens"] = *cacheWrite
	}
	up.UsageExtra = extra
	if credits != nil {
		usd := *credits * ampCreditUSD
		up.CostUSD = &usd
	}
	return up, true
}

// ampMessageID reads a message's numeric id (later Amp builds write
// string ids, which no ledger event names).
func ampMessageID(raw json.RawMessage) (int64, bool) {
	var id int64
	if len(raw) == 0 || json.Unmarshal(raw, &id) != nil {
		return 0, false
	}
	return id, true
}

// ampFirst returns the first of its strings that is not empty.
func ampFirst(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// ampCount is a present counter's value, else 0.
func ampCount(v *int64) int64 {
	if v == nil {
		return 0
	}
	return *v
}

// Finish implements Stream.
func (s *ampHistoryStream) Finish(agents.Emit) {}
