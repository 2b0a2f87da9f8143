package cline

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/opencode"
	"github.com/agentsift/sift/core/event"
)

// clineTaskFiles are the files of a task folder sift reads: the
// conversation the extension sends the model (Anthropic messages, with
// tool_use blocks, and the results in the next user message: tool_result
// blocks, or Cline's "[tool for 'x'] Result:" text), and the messages the
// extension shows (ClineMessage[]: the request costs, the completion,
// errors). Their sizes and last writes are a task's change token.
var clineTaskFiles = []string{"api_conversation_history.json", "ui_messages.json", "task_metadata.json", "history_item.json"}

// clineTasks lists the task folders under a tasks folder (Cline's, Roo
// Code's, Kilo Code's): one session per folder, named by the folder, which
// is the task's id.
func clineTasks(dir string) ([]agents.StoredSession, func(), error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var out []agents.StoredSession
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		task := filepath.Join(dir, e.Name())
		s := agents.StoredSession{Key: agents.StoredKey(task, e.Name()), ID: e.Name()}
		conv := false
		for _, name := range clineTaskFiles {
			fi, err := os.Stat(filepath.Join(task, name))
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			conv = conv || name == clineTaskFiles[0] || name == clineTaskFiles[1]
			s.Size += fi.Size()
			s.MTime = max(s.MTime, fi.ModTime().UnixMilli())
		}
		if !conv {
			continue
		}
		s.Lines = func() ([]byte, error) { return clineTaskLines(task) }
		out = append(out, s)
	}
	return out, nil, nil
}

// clineRender renders a task folder's session again from its key; a key
// whose container is not a task folder under base's tasks (or under
// another's) is not this history's.
func clineRender(ext string) func(key string) ([]byte, bool, error) {
	return func(key string) ([]byte, bool, error) {
		task, id, ok := agents.SplitStoredKey(key)
		if !ok || filepath.Base(task) != id || filepath.Base(filepath.Dir(task)) != "tasks" ||
			filepath.Base(filepath.Dir(filepath.Dir(task))) != ext {
			return nil, false, nil
		}
		lines, err := clineTaskLines(task)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, true, nil
		}
		return lines, true, err
	}
}

// clineTaskLines renders a task folder as the lines its history parser
// reads: a task line ({"task": {"id", "cwd"}}, the working folder the
// first request's environment details name), each message of the
// conversation ({"api": message}), then each message the extension showed
// ({"ui": message}). The render is sift's, not a file the extension
// writes: the folder holds JSON documents, not lines.
func clineTaskLines(task string) ([]byte, error) {
	api, aerr := os.ReadFile(filepath.Join(task, "api_conversation_history.json"))
	ui, uerr := os.ReadFile(filepath.Join(task, "ui_messages.json"))
	if aerr != nil && uerr != nil {
		return nil, aerr
	}
	var apiMsgs, uiMsgs []json.RawMessage
	if len(api) > 0 {
		if err := json.Unmarshal(api, &apiMsgs); err != nil {
			return nil, errors.New("api_conversation_history.json: " + err.Error())
		}
	}
	if len(ui) > 0 {
		if err := json.Unmarshal(ui, &uiMsgs); err != nil {
			return nil, errors.New("ui_messages.json: " + err.Error())
		}
	}
	var out bytes.Buffer
	head, err := json.Marshal(map[string]any{"task": map[string]string{"id": filepath.Base(task), "cwd": clineCwd(api, ui)}})
	if err != nil {
		return nil, err
	}
	out.Write(head)
	out.WriteByte('\n')
	for _, part := range []struct {
		key  string
		msgs []json.RawMessage
	}{{"api", apiMsgs}, {"ui", uiMsgs}} {
		for _, m := range part.msgs {
			out.WriteString(`{"` + part.key + `":`)
			if err := json.Compact(&out, m); err != nil {
				return nil, err
			}
			out.WriteString("}\n")
		}
	}
	return out.Bytes(), nil
}

// clineCwdRe finds the working folder in a request's environment details:
// Cline's "# Current Working Directory (DIR) Files", Roo Code's and Kilo
// Code's "# Current Workspace Directory (DIR) Files".
var clineCwdRe = regexp.MustCompile(`# Current (?:Working|Workspace) Directory \(([^)\n]+)\) Files`)

// clineCwd is the first working folder the conversation (as JSON text)
// names; "" when none.
func clineCwd(docs ...[]byte) string {
	for _, d := range docs {
		if m := clineCwdRe.FindSubmatch(d); m != nil {
			var s string
			// The folder is inside a JSON string: unquote it.
			if json.Unmarshal([]byte(`"`+string(m[1])+`"`), &s) == nil && filepath.IsAbs(s) {
				return s
			}
		}
	}
	return ""
}

// clineHistoryParser reads a rendered task folder (clineTaskLines) of
// Cline, Roo Code or Kilo Code.
type clineHistoryParser struct{ kind agents.Kind }

// Kind implements Parser.
func (p clineHistoryParser) Kind() agents.Kind { return p.kind }

// NewStream implements Parser.
func (p clineHistoryParser) NewStream() agents.Stream {
	if p.kind == agents.KiloHistory {
		return &kiloStream{}
	}
	return &clineStream{kind: p.kind}
}

// kiloStream reads a Kilo Code session of either store: a task folder's
// render (Cline's lines) or a Kilo CLI database's (opencode's render,
// which opens with its session line), chosen by its first line.
type kiloStream struct{ inner agents.Stream }

// Line implements Stream.
func (s *kiloStream) Line(l agents.Line, emit agents.Emit) bool {
	if s.inner == nil {
		if opencode.IsHistoryLine(l.Bytes) {
			s.inner = opencode.HistoryStream()
		} else {
			s.inner = &clineStream{kind: agents.KiloHistory}
		}
	}
	return s.inner.Line(l, emit)
}

// Finish implements Stream.
func (s *kiloStream) Finish(emit agents.Emit) {
	if s.inner != nil {
		s.inner.Finish(emit)
	}
}

// EndsWithResult implements Parser: a task ends as its last message
// leaves it.
func (clineHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: a render is never met on disk, only read by
// its kind.
func (clineHistoryParser) Claims([]byte) bool { return false }

// clineLine is one rendered line.
type clineLine struct {
	Task *struct {
		ID  string `json:"id"`
		Cwd string `json:"cwd"`
	} `json:"task"`
	API *clineAPIMessage `json:"api"`
	UI  *clineUIMessage  `json:"ui"`
}

// clineAPIMessage is an Anthropic message as the extension keeps it, with
// its own additions (ts, modelInfo).
type clineAPIMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	TS        *int64          `json:"ts"`
	ModelInfo *struct {
		ModelID string `json:"modelId"`
	} `json:"modelInfo"`
}

// clineUIMessage is a ClineMessage.
type clineUIMessage struct {
	TS        int64  `json:"ts"`
	Type      string `json:"type"`
	Ask       string `json:"ask"`
	Say       string `json:"say"`
	Text      string `json:"text"`
	Partial   bool   `json:"partial"`
	ModelInfo *struct {
		ModelID string `json:"modelId"`
	} `json:"modelInfo"`
}

// clineCall is a tool call waiting for its result.
type clineCall struct {
	id, name string
}

type clineStream struct {
	// kind is the history's: Cline's, Roo Code's or Kilo Code's.
	kind agents.Kind
	// open are the calls of the last assistant message without a result
	// yet, in order: Cline answers them in one user message.
	open []clineCall
	// model is the last model named; last the time of the last message.
	model string
	last  int64
	// end is the ui message that ends the task, held to the end: a
	// completion, or an error after the last completion.
	end     *clineUIMessage
	endLine agents.Line
}

// Line implements Stream.
func (s *clineStream) Line(l agents.Line, emit agents.Emit) bool {
	var r clineLine
	if json.Unmarshal(l.Bytes, &r) != nil {
		return false
	}
	switch {
	case r.Task != nil:
		emit(&event.Event{SessionID: r.Task.ID, Update: event.Update{SessionUpdate: event.SessionStart, Cwd: r.Task.Cwd}})
	case r.API != nil:
		s.api(r.API, emit)
	case r.UI != nil:
		s.ui(r.UI, l, emit)
	default:
		return false
	}
	return true
}

// api emits a conversation message: the prompts, what the agent said and
// thought, its tool calls and their results.
func (s *clineStream) api(m *clineAPIMessage, emit agents.Emit) {
	if m.ModelInfo != nil && m.ModelInfo.ModelID != "" {
		s.model = m.ModelInfo.ModelID
	}
	base := event.Event{Timestamp: agents.EpochMS(m.TS)}
	put := func(u event.Update) {
		ev := base
		ev.Update = u
		if m.Role == "assistant" {
			ev.Model = s.model
		}
		emit(&ev)
	}
	var blocks []agents.AnthropicBlock
	if len(m.Content) > 0 && m.Content[0] == '"' {
		var t string
		_ = json.Unmarshal(m.Content, &t)
		blocks = []agents.AnthropicBlock{{Type: "text", Text: t}}
	} else {
		_ = json.Unmarshal(m.Content, &blocks)
	}
	if m.Role == "assistant" {
		s.open = s.open[:0]
	}
	// res is a tool's result whose text follows its head in the next
	// blocks (Roo Code's "[read_file for 'x'] Result:" block, then the
	// content), until the environment details or the next result.
	var res *clineResultBuf
	flush := func() {
		if res != nil {
			s.endResult(res, put)
			res = nil
		}
	}
	for i := range blocks {
		b := &blocks[i]
		switch {
		case m.Role == "assistant" && b.Type == "thinking" && b.Thinking != "":
			put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(b.Thinking)})
		case m.Role == "assistant" && b.Type == "text":
			s.assistantText(b.Text, m.TS, i, put)
		case m.Role == "assistant" && b.Type == "tool_use":
			u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: b.ID, Status: event.StatusPending}
			agents.DescribeTool(&u, b.Name, b.Input)
			put(u)
			s.open = append(s.open, clineCall{b.ID, b.Name})
		case m.Role == "user" && b.Type == "tool_result":
			flush()
			put(s.result(b.ToolUseID, agents.AnthropicResultText(b.Content), b.IsError))
		case m.Role == "user" && b.Type == "text":
			if name, text, ok := clineTextResult(b.Text); ok {
				flush()
				res = &clineResultBuf{id: s.take(name)}
				if text != "" {
					res.parts = append(res.parts, text)
					flush()
				}
				continue
			}
			if model := clineEnvModel(b.Text); model != "" {
				s.model = model
			}
			if res != nil && !strings.HasPrefix(strings.TrimSpace(b.Text), "<environment_details>") {
				res.parts = append(res.parts, strings.TrimSpace(b.Text))
				continue
			}
			flush()
			if p := clinePrompt(b.Text); p != "" {
				put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(p)})
			}
		}
	}
	flush()
}

// clineResultBuf is a tool's result being gathered from text blocks: the
// call it answers ("" when no call of that name is open) and its text.
type clineResultBuf struct {
	id    string
	parts []string
}

// endResult emits a gathered result: the open call's result, or, for a
// result no open call waits for, what the person wrote inside it (their
// feedback or answer).
func (s *clineStream) endResult(r *clineResultBuf, put func(event.Update)) {
	text := strings.Join(r.parts, "\n")
	if r.id != "" {
		put(s.result(r.id, text, false))
		return
	}
	if p := clineTagged(text); p != "" {
		put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(p)})
	}
}

// clineModelRe finds the model in a request's environment details (Roo
// Code's and Kilo Code's "# Current Mode" section: "<model>ID</model>").
var clineModelRe = regexp.MustCompile(`<model>([^<\n]+)</model>`)

// clineEnvModel is the model a user text block's environment details
// name; "" when it names none.
func clineEnvModel(text string) string {
	if !strings.HasPrefix(strings.TrimSpace(text), "<environment_details>") {
		return ""
	}
	if m := clineModelRe.FindStringSubmatch(text); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}

// clineXMLTools are the tools the extensions called in XML inside the
// assistant's text before they moved to native tool calls (Roo Code's
// toolNames, Cline's own): "<read_file>\n<path>x</path>\n</read_file>".
var clineXMLTools = map[string]bool{
	"execute_command": true, "read_file": true, "write_to_file": true, "apply_diff": true,
	"insert_content": true, "search_and_replace": true, "replace_in_file": true, "search_files": true,
	"list_files": true, "list_code_definition_names": true, "browser_action": true,
	"use_mcp_tool": true, "access_mcp_resource": true, "ask_followup_question": true,
	"attempt_completion": true, "switch_mode": true, "new_task": true, "fetch_instructions": true,
	"codebase_search": true, "update_todo_list": true, "run_slash_command": true,
	"generate_image": true, "plan_mode_respond": true, "load_mcp_documentation": true,
	"new_rule": true, "web_fetch": true, "condense": true, "report_bug": true,
}

// clineTagRe finds an XML tag's opening: "<name>"; clinePathRe a <path>
// element, as read_file's nested <args><file><path>.
var (
	clineTagRe  = regexp.MustCompile(`<([a-z_]+)>`)
	clinePathRe = regexp.MustCompile(`<path>([^<]*)</path>`)
)

// assistantText emits an assistant text block: what the agent said, and
// the tool calls it wrote in XML, each named by the message's time and the
// block's place ("xml-<ts>-<block>-<n>") as the extensions give them no
// id.
func (s *clineStream) assistantText(text string, ts *int64, block int, put func(event.Update)) {
	say := func(t string) {
		if t = strings.TrimSpace(t); t != "" {
			put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(t)})
		}
	}
	var stamp int64
	if ts != nil {
		stamp = *ts
	}
	for n := 0; ; n++ {
		start, end, name, input := clineXMLTool(text)
		if start < 0 {
			say(text)
			return
		}
		say(text[:start])
		id := "xml-" + strconv.FormatInt(stamp, 10) + "-" + strconv.Itoa(block) + "-" + strconv.Itoa(n)
		u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: id, Status: event.StatusPending}
		agents.DescribeTool(&u, name, input)
		put(u)
		s.open = append(s.open, clineCall{id, name})
		text = text[end:]
	}
}

// clineXMLTool finds the first tool call written in XML in an assistant's
// text: where it starts and ends, the tool, and its parameters as a JSON
// object (each child element's text; a nested element's text as it is,
// with the first <path> inside lifted to "path"). start is -1 when the
// text holds none. A call without its closing tag runs to the end (the
// message was cut).
func clineXMLTool(text string) (start, end int, name string, input json.RawMessage) {
	for _, m := range clineTagRe.FindAllStringSubmatchIndex(text, -1) {
		if !clineXMLTools[text[m[2]:m[3]]] {
			continue
		}
		name = text[m[2]:m[3]]
		start, end = m[0], len(text)
		body := text[m[1]:]
		if i := strings.Index(body, "</"+name+">"); i >= 0 {
			body, end = body[:i], m[1]+i+len("</"+name+">")
		}
		params := map[string]string{}
		for rest := body; ; {
			p := clineTagRe.FindStringSubmatchIndex(rest)
			if p == nil {
				break
			}
			key := rest[p[2]:p[3]]
			j := strings.Index(rest[p[1]:], "</"+key+">")
			if j < 0 {
				params[key] = strings.TrimSpace(rest[p[1]:])
				break
			}
			params[key] = strings.Trim(rest[p[1]:p[1]+j], "\n")
			rest = rest[p[1]+j+len("</"+key+">"):]
		}
		if _, ok := params["path"]; !ok {
			if p := clinePathRe.FindStringSubmatch(body); p != nil {
				params["path"] = strings.TrimSpace(p[1])
			}
		}
		input, _ = json.Marshal(params)
		return start, end, name, input
	}
	return -1, -1, "", nil
}

// take returns the first open call of a tool name and closes it; "" when
// none is open.
func (s *clineStream) take(name string) string {
	for i, c := range s.open {
		if c.name == name {
			s.open = append(s.open[:i], s.open[i+1:]...)
			return c.id
		}
	}
	return ""
}

// result is a call's result update: failed when the result says the tool
// failed, approval-required when the user denied it.
func (s *clineStream) result(id, text string, isError bool) event.Update {
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: id, Status: event.StatusCompleted}
	if text != "" {
		u.Content = event.Text(text)
	}
	switch {
	case strings.HasPrefix(text, "The user denied this operation"):
		u.Status, u.ApprovalRequired, u.Message = event.StatusFailed, true, agents.FirstLine(text)
	case isError || strings.HasPrefix(text, "The tool execution failed") || strings.HasPrefix(text, "<error>"):
		u.Status, u.Message = event.StatusFailed, agents.FirstLine(strings.TrimPrefix(text, "<error>"))
	}
	return u
}

// ui reads what the extension showed: each request's tokens and cost (the
// api_req_started message, once its cost is known), and how the task
// ends.
func (s *clineStream) ui(m *clineUIMessage, l agents.Line, emit agents.Emit) {
	if m.ModelInfo != nil && m.ModelInfo.ModelID != "" {
		s.model = m.ModelInfo.ModelID
	}
	s.last = max(s.last, m.TS)
	ts := agents.EpochMS(&m.TS)
	switch {
	case m.Say == "api_req_started":
		var r struct {
			TokensIn    *int64   `json:"tokensIn"`
			TokensOut   *int64   `json:"tokensOut"`
			CacheWrites *int64   `json:"cacheWrites"`
			CacheReads  *int64   `json:"cacheReads"`
			Cost        *float64 `json:"cost"`
			APIProtocol string   `json:"apiProtocol"`
		}
		if json.Unmarshal([]byte(m.Text), &r) != nil || (r.TokensIn == nil && r.TokensOut == nil) {
			return
		}
		// The prompt is the uncached input and the cache's reads and
		// writes (Anthropic's counting), except where tokensIn already
		// counts the cache: the provider's (Roo Code's "openai"
		// protocol: getApiMetrics), or every request of Roo Code and
		// Kilo Code since they record the whole input (clineTotalSince).
		prompt := agents.SumPresent(r.TokensIn, r.CacheReads, r.CacheWrites)
		if r.APIProtocol == "openai" || s.totalInput(m.TS, r.TokensIn, r.CacheReads, r.CacheWrites) {
			prompt = r.TokensIn
		}
		u := event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall, PromptTokens: prompt,
			CompletionTokens: r.TokensOut, CachedTokens: r.CacheReads, CostUSD: r.Cost}
		if r.CacheWrites != nil {
			u.UsageExtra = map[string]int64{"cache_creation_input_tokens": *r.CacheWrites}
		}
		emit(&event.Event{Timestamp: ts, Model: s.model, Update: u})
	case m.Say == "completion_result" && !m.Partial,
		m.Say == "error", m.Ask == "api_req_failed", m.Ask == "mistake_limit_reached":
		held := *m
		s.end, s.endLine = &held, l
	case m.Say == "user_feedback" || m.Ask == "resume_task":
		// The task went on after the ending held so far.
		if m.Say == "user_feedback" {
			s.end = nil
		}
	}
}

// clineTotalSince is when Roo Code and Kilo Code began to record a
// request's whole input as tokensIn, cache reads and writes included, for
// every provider (tokensIn: costResult.totalInputTokens, Roo Code's
// "Fix cost and token tracking between provider styles", #8954): the
// releases that shipped it, Roo Code 3.29.5 (2025-11-01) and Kilo Code
// 4.119.0 (2025-11-12), in Unix milliseconds. Before, an Anthropic-protocol
// request recorded the uncached input, as Cline does still.
var clineTotalSince = map[agents.Kind]int64{agents.RooHistory: 1761955200000, agents.KiloHistory: 1762905600000}

// totalInput reports whether a request's tokensIn is its whole input: a
// Roo Code or Kilo Code request dated from the release that changed it,
// unless tokensIn is below the cache it would hold (a request of an older
// version still in use). The task's files name no version.
func (s *clineStream) totalInput(ts int64, in, reads, writes *int64) bool {
	since, ok := clineTotalSince[s.kind]
	if !ok || ts < since || in == nil {
		return false
	}
	var cache int64
	if reads != nil {
		cache += *reads
	}
	if writes != nil {
		cache += *writes
	}
	return *in >= cache
}

// Finish implements Stream: the task's ending.
func (s *clineStream) Finish(emit agents.Emit) {
	m := s.end
	if m == nil {
		return
	}
	ev := event.Event{Line: s.endLine.No, Offset: s.endLine.Offset, Timestamp: agents.EpochMS(&m.TS)}
	if m.Say == "completion_result" {
		// The completion is attempt_completion's answer.
		if id := s.take("attempt_completion"); id != "" {
			up := ev
			up.Update = event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: id, Status: event.StatusCompleted}
			if m.Text != "" {
				up.Update.Content = event.Text(m.Text)
			}
			emit(&up)
		}
		ev.Update = event.Update{SessionUpdate: event.Result, IsError: event.Bool(false), Subtype: "completion_result", Text: m.Text}
	} else {
		msg := agents.FirstLine(m.Text)
		if msg == "" {
			msg = agents.FirstNonEmpty(m.Ask, m.Say)
		}
		ev.Update = event.Update{SessionUpdate: event.Error, Message: msg}
	}
	emit(&ev)
}

// clineResultRe is the head of a tool's result as the extension sends it
// in text: the tool's name, then what it was for up to "] Result:"
// (Cline's "[read_file for 'x'] Result:", Roo Code's "[read_file for 'x'.
// Reading multiple files at once ...] Result:", "[new_task in Code mode:
// '...'] Result:", "[switch_mode to 'x' because: ...] Result:").
var clineResultRe = regexp.MustCompile(`(?s)^\[([a-z_]+)(?:\]| .*?\]) Result:\n?`)

// clineTextResult reads a text block that is a tool's result: the tool's
// name and the result.
func clineTextResult(text string) (name, result string, ok bool) {
	m := clineResultRe.FindStringSubmatchIndex(text)
	if m == nil {
		return "", "", false
	}
	return text[m[2]:m[3]], strings.TrimSpace(text[m[1]:]), true
}

// clinePrompt is what a person wrote in a user text block: the task
// (inside <task>), their feedback (<feedback>, <answer>, <user_message>),
// or the text itself; "" for what the extension adds (environment details,
// its reminders).
func clinePrompt(text string) string {
	if p := clineTagged(text); p != "" {
		return p
	}
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "<environment_details>") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "[") || t == "" {
		return ""
	}
	return t
}

// clineTagged is what a person wrote inside the tags the extension wraps
// it in (<task>, <feedback>, <answer>, <user_message>); "" when none.
func clineTagged(text string) string {
	for _, tag := range []string{"task", "feedback", "answer", "user_message"} {
		open, end := "<"+tag+">", "</"+tag+">"
		if i := strings.Index(text, open); i >= 0 {
			if j := strings.Index(text[i:], end); j >= 0 {
				return strings.TrimSpace(text[i+len(open) : i+j])
			}
		}
	}
	return ""
}
