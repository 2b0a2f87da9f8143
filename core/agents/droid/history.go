package droid

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// droidHistoryParser reads Droid's session logs as droid 0.215.0 writes
// them: a session_start line {id, title, owner, version, cwd}, message
// lines {id, parentId, timestamp, message: {role, content: Anthropic
// blocks (text, thinking, tool_use, tool_result), modelId, visibility}}
// (llm_only: context the model sees, not the user's prompt; user_only: a
// notice the user sees, such as the error that ended a turn), and an
// agent_turn_outcome line {turnId, reason} ending each turn (completed,
// model_request_rejected, …). The session's tokens are not in the log:
// droidSessionLines adds its settings file as a last line {"type":
// "settings", "settings": …}, sift's render.
type droidHistoryParser struct{}

// Kind implements Parser.
func (droidHistoryParser) Kind() agents.Kind { return agents.DroidHistory }

// NewStream implements Parser.
func (droidHistoryParser) NewStream() agents.Stream { return &droidHistoryStream{} }

// EndsWithResult implements Parser: the log has no result line.
func (droidHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: the session_start line, a turn's outcome, or a
// message line with Droid's own fields (an assistant's modelId, a
// message's visibility).
func (droidHistoryParser) Claims(line []byte) bool {
	switch {
	case agents.HasType(line, "session_start"):
		return bytes.Contains(line, []byte(`"cwd"`)) && bytes.Contains(line, []byte(`"owner"`))
	case agents.HasType(line, "agent_turn_outcome"):
		return bytes.Contains(line, []byte(`"turnId"`))
	case agents.HasType(line, "message"):
		return bytes.Contains(line, []byte(`"message":{"role"`)) &&
			(bytes.Contains(line, []byte(`"modelId"`)) || bytes.Contains(line, []byte(`"visibility"`)))
	}
	return false
}

// droidEntry is one line of the log, as far as sift reads it.
type droidEntry struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
	Reason    string `json:"reason"`
	Message   *struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ModelID    string          `json:"modelId"`
		Visibility string          `json:"visibility"`
	} `json:"message"`
	Settings *droidSettings `json:"settings"`
}

// droidSettings is a session's settings file, as far as sift reads it.
type droidSettings struct {
	Model string `json:"model"`
	// LockedAt is when the session's provider was fixed, the time
	// ccusage dates the session's tokens at.
	LockedAt string `json:"providerLockTimestamp"`
	Usage    *struct {
		Input         *int64 `json:"inputTokens"`
		Output        *int64 `json:"outputTokens"`
		CacheCreation *int64 `json:"cacheCreationTokens"`
		CacheRead     *int64 `json:"cacheReadTokens"`
		Thinking      *int64 `json:"thinkingTokens"`
		Total         *int64 `json:"totalTokens"`
	} `json:"tokenUsage"`
}

type droidHistoryStream struct {
	model string
	// notice is the last text shown to the user only: the reason a turn
	// that did not complete gives.
	notice string
}

// Line implements Stream.
func (s *droidHistoryStream) Line(l agents.Line, emit agents.Emit) bool {
	var e droidEntry
	if json.Unmarshal(l.Bytes, &e) != nil || e.Type == "" {
		return false
	}
	base := event.Event{Timestamp: agents.ISOTime(e.Timestamp), Model: s.model}
	put := func(u event.Update) {
		ev := base
		ev.Update = u
		emit(&ev)
	}
	switch e.Type {
	case "session_start":
		ev := base
		ev.SessionID = e.ID
		ev.Update = event.Update{SessionUpdate: event.SessionStart, Cwd: e.Cwd}
		emit(&ev)
	case "message":
		if e.Message == nil {
			return false
		}
		m := e.Message
		var blocks []agents.AnthropicBlock
		if t, ok := agents.JSONText(m.Content); ok {
			blocks = []agents.AnthropicBlock{{Type: "text", Text: t}}
		} else {
			_ = json.Unmarshal(m.Content, &blocks)
		}
		switch {
		case m.Visibility == "llm_only":
		case m.Visibility == "user_only":
			s.notice = droidText(blocks, "text")
		case m.Role == "assistant":
			if m.ModelID != "" {
				s.model, base.Model = m.ModelID, m.ModelID
			}
			base.MessageID = e.ID
			s.assistant(blocks, put)
		case m.Role == "user":
			s.user(blocks, put)
		}
	case "agent_turn_outcome":
		if e.Reason != "" && e.Reason != "completed" {
			msg := agents.FirstLine(s.notice)
			if msg == "" {
				msg = strings.ReplaceAll(e.Reason, "_", " ")
			}
			put(event.Update{SessionUpdate: event.Error, Message: msg})
		}
		s.notice = ""
	case "settings":
		if st := e.Settings; st != nil {
			// The session's tokens, dated when its provider was fixed,
			// of the model it records when no response named one.
			base.Timestamp = agents.ISOTime(st.LockedAt)
			if base.Model == "" {
				base.Model = st.Model
			}
			s.settings(st, put)
		}
	default:
		// todo_state and the log's other bookkeeping.
	}
	return true
}

// assistant emits a response: thinking, text, then its tool calls.
func (s *droidHistoryStream) assistant(blocks []agents.AnthropicBlock, put func(event.Update)) {
	if t := droidText(blocks, "thinking"); t != "" {
		put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(t)})
	}
	if t := droidText(blocks, "text"); t != "" {
		put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(t)})
	}
	for _, b := range blocks {
		if b.Type == "tool_use" {
			u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: b.ID, Status: event.StatusPending}
			agents.DescribeTool(&u, b.Name, b.Input)
			put(u)
		}
	}
}

// user emits a user message: its tool results, and its text as the
// prompt (a system reminder Droid adds to it is not).
func (s *droidHistoryStream) user(blocks []agents.AnthropicBlock, put func(event.Update)) {
	var prompt []string
	for _, b := range blocks {
		switch b.Type {
		case "tool_result":
			u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: b.ToolUseID, Status: event.StatusCompleted}
			text := agents.AnthropicResultText(b.Content)
			if n, ok := droidExitCode(text); ok {
				u.ExitCode = &n
			}
			if text != "" {
				u.Content = event.Text(text)
			}
			if b.IsError {
				u.Status, u.Message = event.StatusFailed, agents.FirstLine(strings.TrimPrefix(text, "Error: "))
			}
			put(u)
		case "text":
			if t := strings.TrimSpace(b.Text); t != "" && !strings.HasPrefix(t, "<system-reminder>") {
				prompt = append(prompt, t)
			}
		}
	}
	if len(prompt) > 0 {
		put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(strings.Join(prompt, "\n"))})
	}
}

// settings emits the session's token usage, Droid's own total: its
// inputTokens are the uncached prompt, as Anthropic counts it, so the
// prompt sift counts adds both cache shares. Its thinkingTokens are
// output, as ccusage's droid adapter bills them (output apart, in its
// total), and a totalTokens beyond the parts counts as output
// (countTotal); a usage of no tokens is none, as ccusage skips it.
func (s *droidHistoryStream) settings(st *droidSettings, put func(event.Update)) {
	u := st.Usage
	if u == nil {
		return
	}
	prompt, completion := agents.CountTotal(agents.SumPresent(u.Input, u.CacheRead, u.CacheCreation), agents.SumPresent(u.Output, u.Thinking),
		u.Total, u.Input, u.Output, u.CacheRead, u.CacheCreation, u.Thinking)
	if sum := agents.SumPresent(prompt, completion); sum == nil || *sum == 0 {
		return
	}
	up := event.Update{SessionUpdate: event.Usage, Scope: event.ScopeRun, CompletionTokens: completion,
		CachedTokens: u.CacheRead, PromptTokens: prompt}
	extra := map[string]int64{}
	if u.Input != nil {
		extra["input_tokens"] = *u.Input
	}
	if u.CacheCreation != nil {
		extra["cache_creation_input_tokens"] = *u.CacheCreation
	}
	if u.Thinking != nil {
		extra["thinking_tokens"] = *u.Thinking
	}
	up.UsageExtra = extra
	put(up)
}

// droidText joins the text of the blocks of one type (text or thinking).
func droidText(blocks []agents.AnthropicBlock, typ string) string {
	return agents.JoinTexts(blocks, func(b *agents.AnthropicBlock) string {
		if b.Type != typ {
			return ""
		}
		if typ == "thinking" {
			return b.Thinking
		}
		return b.Text
	})
}

// droidExitCode reads the exit status Droid's Execute tool appends to a
// command's output: "[Process exited with code N]".
func droidExitCode(text string) (int, bool) {
	const marker = "[Process exited with code "
	i := strings.LastIndex(text, marker)
	if i < 0 {
		return 0, false
	}
	return agents.LeadingInt(text[i+len(marker):])
}

// Finish implements Stream.
func (s *droidHistoryStream) Finish(agents.Emit) {}

// droidHistoryDirs is the folder Droid keeps its sessions in:
// ~/.factory/sessions (Droid reads no variable that moves it).
func droidHistoryDirs(_ func(string) string, home string) []string {
	if home == "" {
		return nil
	}
	return []string{filepath.Join(home, ".factory", "sessions")}
}

// droidSessions lists the sessions under Droid's sessions folder: each
// <project>/<id>.jsonl, keyed by its project folder and id, its change
// token the log's and its settings file's together (the settings file
// alone changes when a response's tokens are counted).
func droidSessions(dir string) ([]agents.StoredSession, func(), error) {
	projects, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var out []agents.StoredSession
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		folder := filepath.Join(dir, p.Name())
		files, _ := os.ReadDir(folder)
		for _, f := range files {
			id, ok := strings.CutSuffix(f.Name(), ".jsonl")
			if !ok || id == "" || !f.Type().IsRegular() {
				continue
			}
			s := agents.StoredSession{Key: agents.StoredKey(folder, id), ID: id, Project: droidCwd(filepath.Join(folder, f.Name()))}
			for _, name := range []string{f.Name(), id + ".settings.json"} {
				if fi, err := os.Stat(filepath.Join(folder, name)); err == nil && fi.Mode().IsRegular() {
					s.Size += fi.Size()
					s.MTime = max(s.MTime, fi.ModTime().UnixMilli())
				}
			}
			s.Lines = func() ([]byte, error) { return droidSessionLines(folder, id) }
			out = append(out, s)
		}
	}
	return out, nil, nil
}

// droidRender renders a session again from its key: a project folder
// under a .factory/sessions folder and a session id.
func droidRender(key string) ([]byte, bool, error) {
	folder, id, ok := agents.SplitStoredKey(key)
	sessions := filepath.Dir(folder)
	if !ok || filepath.Base(sessions) != "sessions" || filepath.Base(filepath.Dir(sessions)) != ".factory" {
		return nil, false, nil
	}
	lines, err := droidSessionLines(folder, id)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true, nil
	}
	return lines, true, err
}

// droidSessionLines renders a session as the lines its parser reads: the
// log as it is, then its settings file as one line {"type": "settings",
// "settings": …} when there is one.
func droidSessionLines(folder, id string) ([]byte, error) {
	log, err := os.ReadFile(filepath.Join(folder, id+".jsonl"))
	if err != nil {
		return nil, err
	}
	settings, err := os.ReadFile(filepath.Join(folder, id+".settings.json"))
	if err != nil || !json.Valid(settings) {
		return log, nil
	}
	var out bytes.Buffer
	out.Write(log)
	if len(log) > 0 && log[len(log)-1] != '\n' {
		out.WriteByte('\n')
	}
	out.WriteString(`{"type":"settings","settings":`)
	if err := json.Compact(&out, settings); err != nil {
		return log, nil
	}
	out.WriteString("}\n")
	return out.Bytes(), nil
}

// droidCwd is the working directory a log's session_start line records;
// "" when it records none.
func droidCwd(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadBytes('\n')
	var start struct {
		Type string `json:"type"`
		Cwd  string `json:"cwd"`
	}
	if json.Unmarshal(line, &start) != nil || start.Type != "session_start" {
		return ""
	}
	return start.Cwd
}
