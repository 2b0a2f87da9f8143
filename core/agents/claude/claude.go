package claude

import (
	"bytes"
	"cmp"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// Parser reads Claude Code's `--print --output-format stream-json
// --verbose` stream and Qwen Code's, which has the same shape: the kind
// only changes attribution, sniffing and the meaning of input tokens. The
// Claude-shaped stream it makes also serves Cursor (cursor.go), older
// Antigravity builds (core/agents/antigravity) and Claude Code's on-disk
// transcripts (history.go).
type Parser struct{ Agent agents.Kind }

func (p Parser) Kind() agents.Kind { return p.Agent }

// Claims claims Claude Code's init line (it names claude_code_version) and
// its assistant, user and result lines; Qwen claims its init line
// (qwen_code_version).
func (p Parser) Claims(line []byte) bool {
	switch p.Agent {
	case agents.Claude:
		if agents.HasType(line, "system") {
			return bytes.Contains(line, []byte(`"claude_code_version"`))
		}
		if agents.HasType(line, "assistant") || agents.HasType(line, "user") {
			return bytes.Contains(line, []byte(`"message"`)) && bytes.Contains(line, []byte(`"session_id"`)) &&
				!bytes.Contains(line, []byte(`"model_call_id"`))
		}
		return agents.HasType(line, "result") && bytes.Contains(line, []byte(`"session_id"`)) &&
			(bytes.Contains(line, []byte(`"num_turns"`)) || bytes.Contains(line, []byte(`"total_cost_usd"`)))
	case agents.Qwen:
		return agents.HasType(line, "system") && bytes.Contains(line, []byte(`"qwen_code_version"`))
	}
	return false
}

func (p Parser) NewStream() agents.Stream { return newClaudeStream(p.Agent) }

// EndsWithResult implements Parser: Claude Code and Qwen Code end with a
// result line.
func (Parser) EndsWithResult() bool { return true }

// claudeStream is the per-stream state of the Claude-shaped parser.
type claudeStream struct {
	agents.Lender
	kind  agents.Kind
	model string
	// history is set for on-disk transcripts.
	history bool
	// counted holds the message:request keys whose usage was emitted.
	counted map[string]bool
	// replays holds the request id of each message a sidechain replayed
	// before the main chain wrote it (firstUsage).
	replays map[string]string
	// started is set once a transcript's session is opened.
	started bool
	// tasks is the plan the task tools keep, taskSeq the number of the
	// last task created (plan.go).
	tasks   []claudeTask
	taskSeq int
	// names remembers tool names by call id, for results and denials.
	names map[string]string
	// approvals are calls a result line or tool_result_meta said were
	// denied by a permission rule.
	approvals map[string]bool
	// msg and blocks are the message a line is decoded into and its
	// content's array (scratchMessage), the Scratch's when the events are
	// lent; used is how many blocks the last line wrote.
	msg    claudeMessageFast
	blocks []claudeBlock
	used   int
	// toolNames holds one copy of each tool name: lines are decoded with
	// their strings referring to the read buffer (decodeLine), and what the
	// stream keeps must be its own.
	toolNames map[string]string
	// line is the line being read, kept so that decoding it copies
	// nothing in or out (decodeInto); its raw values' arrays are the
	// Scratch's when the events are lent (rawArrays).
	line claudeLineFast
	// countersMap and extraMap are a line's usage counters and result extras
	// when the events are lent (lender.counters).
	countersMap map[string]int64
	extraMap    map[string]any
	// stopMap is the Extra a message's content events share, which only
	// names the stop reason; requestMap a transcript's usage event's,
	// sideMap a sidechain's.
	stopMap, requestMap, sideMap map[string]any
}

// NewStream returns a Claude-shaped stream attributed to kind, for the
// harnesses that print Claude Code's shape (Cursor, older Antigravity
// builds).
func NewStream(kind agents.Kind) agents.Stream { return newClaudeStream(kind) }

func newClaudeStream(kind agents.Kind) *claudeStream {
	return &claudeStream{kind: kind, names: map[string]string{}, approvals: map[string]bool{}}
}

// Line implements Stream.
func (s *claudeStream) Line(l agents.Line, emit agents.Emit) bool {
	if len(l.Bytes) == 0 || l.Bytes[0] != '{' {
		return false
	}
	if s.history && s.started && quietHistoryLine(l.Bytes) {
		return true
	}
	f := &s.line
	*f = claudeLineFast{Message: s.scratchMessage()}
	cl := &f.claudeLine
	raws := s.rawFields()
	s.LendRaw(agents.RawClaudeLine, raws[:]...)
	s.LendTools(&cl.Tools)
	err := agents.DecodeInto(l.Bytes, f)
	if f.Message != nil {
		// The array, grown or not, serves the next line; the blocks
		// written so far are cleared then.
		s.blocks, s.used = f.Message.Content, len(f.Message.Content)
		if s.Lends() {
			own := s.scratch()
			own.blocks, own.used = s.blocks, s.used
		}
	}
	if err == nil {
		if f.Message != nil && !f.Message.empty() {
			m := &f.Message.claudeMessage
			m.Content.blocks = f.Message.Content
			cl.Message = m
		}
	} else {
		err = agents.DecodeInto(l.Bytes, cl)
	}
	s.KeepRaw(agents.RawClaudeLine, raws[:]...)
	s.KeepTools(cl.Tools)
	if err != nil {
		return false
	}
	if s.history {
		return s.historyLine(cl, emit)
	}
	return s.dispatch(cl, emit)
}

// scratchMessage returns the stream's message to decode a line's into, its
// content blocks' array kept from line to line: the decoder fills a slice
// in place, and most lines hold one block, in an array of four allocated
// per line otherwise. Nothing of a line's message outlives the line.
//
// When the events are lent, a block keeps its raw values' arrays for the
// next line's (rawArrays); else each line's are new, as the events keep
// them.
func (s *claudeStream) scratchMessage() *claudeMessageFast {
	if s.Lends() {
		// The Scratch's blocks, which the last stream it served may
		// have written.
		own := s.scratch()
		s.blocks, s.used = own.blocks, own.used
		for i := range s.blocks[:s.used] {
			b := &s.blocks[i]
			*b = claudeBlock{Input: agents.Emptied(b.Input), Content: agents.Emptied(b.Content)}
		}
		own.used = 0
	} else {
		clear(s.blocks[:s.used])
	}
	s.used = 0
	s.msg = claudeMessageFast{Content: s.blocks[:0]}
	return &s.msg
}

// claudeScratch is what the Claude-shaped stream keeps in the Scratch
// (Lender.Own): the content blocks array of its line, whose first used
// blocks the last line wrote.
type claudeScratch struct {
	blocks []claudeBlock
	used   int
}

// scratch returns the stream's part of the Scratch, when the events are
// lent.
func (s *claudeStream) scratch() *claudeScratch {
	own := s.Own()
	sc, ok := (*own).(*claudeScratch)
	if !ok {
		sc = new(claudeScratch)
		*own = sc
	}
	return sc
}

// rawFields are the raw values of the line being read whose arrays are
// kept from line to line.
func (s *claudeStream) rawFields() [5]*json.RawMessage {
	l := &s.line.claudeLine
	return [...]*json.RawMessage{&l.ToolUseResult, &l.ToolUseResultCamel, &l.Result, &l.APIErrorStatus, &l.Errors}
}

// toolName returns the stream's own copy of a tool name, one per name.
func (s *claudeStream) toolName(name string) string {
	if n, ok := s.toolNames[name]; ok {
		return n
	}
	if s.toolNames == nil {
		s.toolNames = map[string]string{}
	}
	n := strings.Clone(name)
	s.toolNames[n] = n
	return n
}

// dispatch emits the events of one decoded line.
func (s *claudeStream) dispatch(cl *claudeLine, emit agents.Emit) bool {
	base := event.Event{SessionID: cl.SessionID, Timestamp: cmp.Or(agents.ISOTime(cl.Timestamp), agents.EpochMS(cl.TimestampMs))}
	if cl.ParentToolUseID != nil {
		base.ParentToolCallID = *cl.ParentToolUseID
	}
	switch cl.Type {
	case "system":
		return s.system(cl, base, emit)
	case "assistant":
		return s.assistant(cl, base, emit)
	case "user":
		return s.user(cl, base, emit)
	case "result":
		return s.result(cl, base, emit)
	case "thinking":
		return s.cursorThinking(cl, base, emit)
	case "tool_call":
		return s.cursorTool(cl, base, emit)
	case "control_request":
		if cl.Request != nil && cl.Request.Subtype == "can_use_tool" {
			ev := s.Event(&base)
			ev.Update = event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: cl.Request.ToolUseID,
				Status: event.StatusPending, ApprovalRequired: true}
			agents.DescribeTool(&ev.Update, cl.Request.ToolName, cl.Request.Input)
			emit(ev)
			return true
		}
	}
	return false
}

func (s *claudeStream) system(cl *claudeLine, base event.Event, emit agents.Emit) bool {
	if cl.Subtype != "init" {
		return s.notice(cl, base, emit)
	}
	s.model = strings.Clone(cl.Model)
	ev := s.Event(&base)
	ev.Model = cl.Model
	version := cl.ClaudeCodeVersion
	if version == "" {
		version = cl.QwenCodeVersion
	}
	ev.Update = event.Update{SessionUpdate: event.SessionStart, Cwd: cl.Cwd, Tools: cl.Tools, CLIVersion: version}
	extra := map[string]any{}
	if cl.PermissionMode != "" {
		extra["permissionMode"] = cl.PermissionMode
	}
	if cl.APIKeySource != "" {
		extra["apiKeySource"] = cl.APIKeySource
	}
	if len(extra) > 0 {
		ev.Extra = extra
	}
	emit(ev)
	return true
}

// notice emits a system line of another subtype than init (hook_started,
// hook_response, status, compact_boundary, …, and subtypes not seen yet)
// as a System event: typed, never raw. A hook that failed is an error, not
// fatal: the run went on.
func (s *claudeStream) notice(cl *claudeLine, base event.Event, emit agents.Emit) bool {
	if cl.Subtype == "" {
		return false
	}
	ev := s.Event(&base)
	if cl.Outcome == "error" || cl.ExitCode != nil && *cl.ExitCode != 0 {
		msg := "hook " + cl.HookName + " failed"
		if cl.Stderr != "" {
			msg += ": " + agents.FirstLine(cl.Stderr)
		}
		ev.Update = event.Update{SessionUpdate: event.Error, Message: msg, Subtype: cl.Subtype}
	} else {
		ev.Update = event.Update{SessionUpdate: event.System, Subtype: cl.Subtype, Title: cl.HookName}
	}
	if cl.HookEvent != "" {
		ev.Extra = map[string]any{"hookEvent": cl.HookEvent}
	}
	emit(ev)
	return true
}

func (s *claudeStream) assistant(cl *claudeLine, base event.Event, emit agents.Emit) bool {
	m := cl.Message
	if m == nil {
		return false
	}
	base.MessageID = m.ID
	if base.MessageID == "" {
		base.MessageID = cl.ModelCallID
	}
	base.Model = m.Model
	if base.Model == "" {
		base.Model = s.model
	}
	if s.history && cl.IsAPIErrorMessage {
		return s.apiError(m, base, emit)
	}
	blocks := m.Content.blocks
	for i := range blocks {
		b := &blocks[i]
		var ev *event.Event
		switch b.Type {
		case "text":
			ev = s.ContentEvent(&base, event.Update{SessionUpdate: event.AgentMessageChunk}, event.Text(b.Text))
		case "thinking", "redacted_thinking":
			ev = s.ContentEvent(&base, event.Update{SessionUpdate: event.AgentThoughtChunk}, event.Text(b.Thinking))
		case "tool_use", "server_tool_use":
			s.names[strings.Clone(b.ID)] = s.toolName(b.Name)
			ev = s.Event(&base)
			ev.Update = event.Update{SessionUpdate: event.ToolCall, ToolCallID: b.ID, Status: event.StatusPending}
			agents.DescribeTool(&ev.Update, b.Name, b.Input)
			if entries := s.planEntries(b.Name, b.Input); entries != nil {
				if m.StopReason != nil {
					ev.Extra = s.stopExtra(*m.StopReason)
				}
				emit(ev)
				ev = s.Event(&base)
				ev.Update = event.Update{SessionUpdate: event.Plan, Entries: entries}
			}
		case "image":
			if b.Source == nil {
				continue
			}
			ev = s.ContentEvent(&base, event.Update{SessionUpdate: event.AgentMessageChunk},
				event.Image(b.Source.MediaType, b.Source.Data))
		default:
			continue
		}
		if m.StopReason != nil {
			ev.Extra = s.stopExtra(*m.StopReason)
		}
		emit(ev)
	}
	if u := m.Usage; u != nil {
		// A transcript repeats a message's usage on each of its content
		// blocks' lines; it is read on the first only.
		replaces := ""
		if s.history {
			first, r := s.firstUsage(cl, m)
			if !first {
				return true
			}
			replaces = r
		}
		ev := s.Event(&base)
		ev.Update = s.usage(u, event.ScopeCall)
		if s.history && cl.RequestID != "" {
			ev.Extra = s.usageExtra(cl, replaces)
		}
		emit(ev)
	}
	return true
}

// usageExtra names a transcript's call: its request id; a sidechain's is
// marked isSidechain, and a main-chain message that replaces a sidechain's
// replay of it names the replay's request id (replacesRequestId), whose
// usage a reader that adds calls up must drop (a summary keeps the last
// usage per message id, which is the main chain's already).
func (s *claudeStream) usageExtra(cl *claudeLine, replaces string) map[string]any {
	switch {
	case replaces != "":
		return map[string]any{"requestId": cl.RequestID, "replacesRequestId": replaces}
	case cl.IsSidechain:
		x := s.OneExtra(&s.sideMap, "requestId", cl.RequestID)
		x["isSidechain"] = true
		return x
	}
	return s.OneExtra(&s.requestMap, "requestId", cl.RequestID)
}

// apiError emits the error a transcript records as an assistant line
// marked isApiErrorMessage (a rate limit, an overloaded API): its text is
// the error, not the model's words, and its zero usage no model call.
func (s *claudeStream) apiError(m *claudeMessage, base event.Event, emit agents.Emit) bool {
	var msg string
	for i := range m.Content.blocks {
		if b := &m.Content.blocks[i]; b.Type == "text" && msg == "" {
			msg = b.Text
		}
	}
	ev := s.Event(&base)
	ev.Update = event.Update{SessionUpdate: event.Error, Message: msg}
	emit(ev)
	return true
}

// stopExtra returns the Extra of a message's content event, which names
// its stop reason.
func (s *claudeStream) stopExtra(reason string) map[string]any {
	return s.OneExtra(&s.stopMap, "stop_reason", agents.BoxedWord(reason))
}

func (s *claudeStream) user(cl *claudeLine, base event.Event, emit agents.Emit) bool {
	m := cl.Message
	if m == nil {
		return false
	}
	for _, meta := range cl.ToolResultMeta {
		if strings.Contains(meta.NonExecutionKind, "permission") {
			s.approvals[strings.Clone(meta.ID)] = true
		}
	}
	blocks := m.Content.blocks
	for i := range blocks {
		b := &blocks[i]
		var ev *event.Event
		switch b.Type {
		case "text":
			ev = s.ContentEvent(&base, event.Update{SessionUpdate: event.UserMessageChunk}, event.Text(b.Text))
			if cl.IsSynthetic {
				ev.Extra = map[string]any{"isSynthetic": true}
			}
		case "image":
			if b.Source == nil {
				continue
			}
			ev = s.ContentEvent(&base, event.Update{SessionUpdate: event.UserMessageChunk},
				event.Image(b.Source.MediaType, b.Source.Data))
		case "tool_result":
			s.toolResult(b, cl, base, emit)
			continue
		default:
			continue
		}
		emit(ev)
	}
	return true
}

// toolResult emits the update that ends a tool call: its text output, any
// image it returned, and the CLI's structured sidecar as raw output.
func (s *claudeStream) toolResult(b *claudeBlock, cl *claudeLine, base event.Event, emit agents.Emit) {
	text, images := s.resultContent(b.Content)
	failed := b.IsError != nil && *b.IsError
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: b.ToolUseID, Status: event.StatusCompleted,
		ToolName: s.names[b.ToolUseID]}
	if u.ToolName != "" {
		u.ToolKind = agents.ToolKindOf(u.ToolName)
	}
	if agents.Present(cl.ToolUseResult) {
		u.RawOutput = cl.ToolUseResult
	}
	if failed {
		u.Status = event.StatusFailed
		u.Message = text
		if code, ok := agents.ExitCodePrefix(text); ok {
			u.ExitCode = event.Int(code)
		}
	}
	if s.approvals[b.ToolUseID] || (failed && isApprovalText(text)) {
		u.ApprovalRequired = true
	}
	emit(s.ContentEvent(&base, u, event.Text(text)))
	for _, img := range images {
		iev := s.Event(&base)
		iev.Update = event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: b.ToolUseID, Status: u.Status, Content: img}
		emit(iev)
	}
}

func (s *claudeStream) result(cl *claudeLine, base event.Event, emit agents.Emit) bool {
	// Denials are known only now: mark those calls approval-blocked.
	for _, d := range cl.PermissionDenials {
		ev := s.Event(&base)
		ev.Update = event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: d.ToolUseID, Status: event.StatusFailed,
			ApprovalRequired: true, Message: "permission denied"}
		agents.DescribeTool(&ev.Update, d.ToolName, d.ToolInput)
		emit(ev)
	}
	if cl.Usage != nil || cl.TotalCostUSD != nil {
		ev := s.Event(&base)
		if cl.Usage != nil {
			ev.Update = s.usage(cl.Usage, event.ScopeRun)
		} else {
			ev.Update = event.Update{SessionUpdate: event.Usage, Scope: event.ScopeRun}
		}
		ev.Update.CostUSD = cl.TotalCostUSD
		emit(ev)
	}
	ev := s.Event(&base)
	u := event.Update{SessionUpdate: event.Result, IsError: cl.IsError, Subtype: cl.Subtype,
		DurationMs: cl.DurationMs, NumTurns: cl.NumTurns}
	if len(cl.Result) > 0 && cl.Result[0] == '"' {
		_ = json.Unmarshal(cl.Result, &u.Text)
	}
	extra := s.Extras(&s.extraMap)
	if cl.DurationAPIMs != nil {
		extra["duration_api_ms"] = *cl.DurationAPIMs
	}
	if cl.TerminalReason != "" {
		extra["terminal_reason"] = cl.TerminalReason
	}
	if agents.Present(cl.APIErrorStatus) {
		extra["api_error_status"] = json.RawMessage(cl.APIErrorStatus)
	}
	if cl.TTFTMs != nil {
		extra["ttft_ms"] = *cl.TTFTMs
	}
	if len(cl.PermissionDenials) > 0 {
		extra["permission_denials"] = len(cl.PermissionDenials)
	}
	if len(extra) > 0 {
		ev.Extra = extra
	}
	ev.Update = u
	if cl.IsError != nil && *cl.IsError {
		// Check is_error, not subtype: API failures say "success".
		eev := s.Event(&base)
		msg := u.Text
		if msg == "" {
			msg = cl.Subtype
		}
		eev.Update = event.Update{SessionUpdate: event.Error, Message: msg, Fatal: true}
		emit(eev)
	}
	emit(ev)
	return true
}

// usage converts a Claude-shaped usage object. Anthropic's input_tokens
// excludes the cache shares; the prompt total adds them back. Cursor's and
// Qwen's input figures already include cache reads.
func (s *claudeStream) usage(u *claudeUsage, scope event.Scope) event.Update {
	out := event.Update{SessionUpdate: event.Usage, Scope: scope, UsageExtra: s.Counters(&s.countersMap)}
	if u.CamelInput != nil || u.CamelOutput != nil {
		out.PromptTokens = u.CamelInput
		out.CompletionTokens = u.CamelOutput
		out.CachedTokens = u.CamelCacheRead
		if u.CamelCacheWrite != nil {
			out.UsageExtra["cacheWriteTokens"] = *u.CamelCacheWrite
		}
		return out
	}
	out.CompletionTokens = u.OutputTokens
	out.CachedTokens = u.CacheRead
	if u.InputTokens != nil {
		out.UsageExtra["input_tokens"] = *u.InputTokens
	}
	if u.CacheCreation != nil {
		out.UsageExtra["cache_creation_input_tokens"] = *u.CacheCreation
	}
	if u.TotalTokens != nil {
		out.UsageExtra["total_tokens"] = *u.TotalTokens
	}
	if u.InputTokens != nil {
		out.PromptTokens = event.Int64(max(*u.InputTokens, 0))
		if s.kind != agents.Qwen {
			out.PromptTokens = agents.SumPresent(out.PromptTokens, u.CacheRead, u.CacheCreation)
		}
	}
	if len(out.UsageExtra) == 0 {
		out.UsageExtra = nil
	}
	return out
}

// decodeBlocks decodes a content array; a string content becomes one text
// block.
func decodeBlocks(raw json.RawMessage, out *[]claudeBlock) bool {
	if !agents.Present(raw) {
		return true
	}
	if raw[0] == '"' {
		var text string
		if json.Unmarshal(raw, &text) != nil {
			return false
		}
		*out = []claudeBlock{{Type: "text", Text: text}}
		return true
	}
	return json.Unmarshal(raw, out) == nil
}

// resultContent flattens a tool_result's content (a string, or text and
// image blocks) into its text and its images.
func (s *claudeStream) resultContent(raw json.RawMessage) (string, []*event.Content) {
	if len(raw) > 0 && raw[0] == '"' {
		// The common case: a string, decoded without a block to hold it.
		// It may refer to raw, the decoder's copy, or to the line's
		// texts (lineTexts).
		text, ok := s.Text(raw)
		if !ok {
			return agents.RawText(raw), nil
		}
		return text, nil
	}
	var blocks []claudeBlock
	if !decodeBlocks(raw, &blocks) {
		return agents.RawText(raw), nil
	}
	var sb strings.Builder
	var images []*event.Content
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if sb.Len() > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(b.Text)
		case "image":
			if b.Source != nil {
				images = append(images, event.Image(b.Source.MediaType, b.Source.Data))
			}
		}
	}
	return sb.String(), images
}

// approvalPhrases are what Claude Code says when a tool was blocked by a
// permission rule rather than failing on its own.
var approvalPhrases = []string{
	"permission denied", "requested permissions", "haven't granted", "requires approval",
	"was blocked", "not allowed to use", "permission to use",
}

func isApprovalText(text string) bool {
	low := strings.ToLower(text)
	for _, p := range approvalPhrases {
		if strings.Contains(low, p) {
			return true
		}
	}
	return false
}

// Finish implements Stream. A Claude-shaped stream needs no end-of-stream
// decision: its result line is explicit.
func (s *claudeStream) Finish(agents.Emit) {}
