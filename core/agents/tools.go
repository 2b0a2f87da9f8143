package agents

import (
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/event"
)

// toolKinds maps a harness's tool name, lowercased, to its ACP kind. Names
// of every harness live here together: Claude Code, Gemini CLI, Qwen Code,
// opencode, Droid, Cursor.
var toolKinds = map[string]event.ToolKind{
	// read
	"read": event.ToolRead, "read_file": event.ToolRead, "read_many_files": event.ToolRead,
	"notebookread": event.ToolRead, "readfile": event.ToolRead, "view": event.ToolRead,
	"readmcpresourcetool": event.ToolRead, "readtoolcall": event.ToolRead,
	// edit
	"edit": event.ToolEdit, "write": event.ToolEdit, "notebookedit": event.ToolEdit,
	"multiedit": event.ToolEdit, "write_file": event.ToolEdit, "replace": event.ToolEdit,
	"create": event.ToolEdit, "applypatch": event.ToolEdit, "apply_patch": event.ToolEdit,
	"patch": event.ToolEdit, "edittoolcall": event.ToolEdit, "writetoolcall": event.ToolEdit,
	"file_change": event.ToolEdit, "str_replace_editor": event.ToolEdit,
	// delete, move
	"delete": event.ToolDelete, "delete_file": event.ToolDelete, "deletetoolcall": event.ToolDelete,
	"move": event.ToolMove, "rename": event.ToolMove,
	// search
	"glob": event.ToolSearch, "grep": event.ToolSearch, "ls": event.ToolSearch,
	"list": event.ToolSearch, "list_directory": event.ToolSearch, "search_file_content": event.ToolSearch,
	"grep_search": event.ToolSearch, "codebase_search": event.ToolSearch, "globtoolcall": event.ToolSearch,
	"greptoolcall": event.ToolSearch, "lstoolcall": event.ToolSearch, "find": event.ToolSearch,
	"toolsearch": event.ToolSearch, "codesearch": event.ToolSearch,
	// execute
	"bash": event.ToolExecute, "bashoutput": event.ToolExecute, "killshell": event.ToolExecute,
	"killbash": event.ToolExecute, "taskoutput": event.ToolExecute, "taskstop": event.ToolExecute,
	"run_shell_command": event.ToolExecute, "execute": event.ToolExecute, "shell": event.ToolExecute,
	"shelltoolcall": event.ToolExecute, "command_execution": event.ToolExecute,
	"exec_command": event.ToolExecute, "local_shell": event.ToolExecute,
	// Shells by name: Claude Code's PowerShell tool (on Windows), and the
	// terminal tools of other agents.
	"powershell": event.ToolExecute, "pwsh": event.ToolExecute, "cmd": event.ToolExecute,
	"run_terminal_cmd": event.ToolExecute, "execute_command": event.ToolExecute,
	"shell_command": event.ToolExecute, "terminal": event.ToolExecute, "run_in_terminal": event.ToolExecute,
	// think: subagents, and tools that only state the model's reasoning
	// (Claude Code's ReportFindings hands the host a review's findings).
	"task": event.ToolThink, "agent": event.ToolThink, "think": event.ToolThink,
	"reportfindings": event.ToolThink,
	// fetch
	"webfetch": event.ToolFetch, "websearch": event.ToolFetch, "web_fetch": event.ToolFetch,
	"google_web_search": event.ToolFetch, "web_search": event.ToolFetch, "fetchurl": event.ToolFetch,
	"fetch": event.ToolFetch,
	// switch_mode
	"exitplanmode": event.ToolSwitchMode, "enterplanmode": event.ToolSwitchMode,
	"exitspecmode": event.ToolSwitchMode,
	// Kimi (kimi-cli, kimi-code) and Antigravity (agy) names.
	"writefile": event.ToolEdit, "strreplacefile": event.ToolEdit, "readmediafile": event.ToolRead,
	"searchweb": event.ToolFetch, "view_file": event.ToolRead, "view_file_outline": event.ToolRead,
	"write_to_file": event.ToolEdit, "replace_file_content": event.ToolEdit,
	"multi_replace_file_content": event.ToolEdit, "run_command": event.ToolExecute,
	"list_dir": event.ToolSearch, "find_by_name": event.ToolSearch, "search_web": event.ToolFetch,
	// Cline, Roo Code and Kilo Code names.
	"replace_in_file": event.ToolEdit, "apply_diff": event.ToolEdit, "insert_content": event.ToolEdit,
	"search_and_replace": event.ToolEdit, "search_files": event.ToolSearch, "list_files": event.ToolSearch,
	"list_code_definition_names": event.ToolSearch, "browser_action": event.ToolFetch, "new_task": event.ToolThink,
	"read_url_content": event.ToolFetch, "invoke_subagent": event.ToolThink,
}

// ToolKindOf returns the ACP kind of a tool by its harness-native name.
// MCP tools (`mcp__server__tool`) and names sift does not know are "other".
func ToolKindOf(name string) event.ToolKind {
	if strings.HasPrefix(name, "mcp__") {
		return event.ToolOther
	}
	if k, ok := toolKinds[strings.ToLower(name)]; ok {
		return k
	}
	return event.ToolOther
}

// pathKeys are the input fields that name the file a tool works on.
var pathKeys = []string{"file_path", "filePath", "path", "notebook_path", "absolute_path", "directory_path", "dir_path"}

// commandKeys are the input fields that hold a shell command.
var commandKeys = []string{"command", "cmd"}

// toolArgs holds the input fields sift reads for titles and locations.
// Everything else (file contents, patches) is skipped by the decoder rather
// than copied into a generic map. T is string for the common input, whose
// fields are strings, or argText for an input that has an argv-style list.
type toolArgs[T ~string] struct {
	FilePath      T `json:"file_path"`
	FilePathCamel T `json:"filePath"`
	Path          T `json:"path"`
	NotebookPath  T `json:"notebook_path"`
	AbsolutePath  T `json:"absolute_path"`
	DirectoryPath T `json:"directory_path"`
	DirPath       T `json:"dir_path"`
	Command       T `json:"command"`
	Cmd           T `json:"cmd"`
	Pattern       T `json:"pattern"`
	Query         T `json:"query"`
	Glob          T `json:"glob"`
	URL           T `json:"url"`
	Prompt        T `json:"prompt"`
	Description   T `json:"description"`
}

// get returns the first non-empty field among the named input keys.
func (a *toolArgs[T]) get(keys ...string) string {
	for _, k := range keys {
		var v T
		switch k {
		case "file_path":
			v = a.FilePath
		case "filePath":
			v = a.FilePathCamel
		case "path":
			v = a.Path
		case "notebook_path":
			v = a.NotebookPath
		case "absolute_path":
			v = a.AbsolutePath
		case "directory_path":
			v = a.DirectoryPath
		case "dir_path":
			v = a.DirPath
		case "command":
			v = a.Command
		case "cmd":
			v = a.Cmd
		case "pattern":
			v = a.Pattern
		case "query":
			v = a.Query
		case "glob":
			v = a.Glob
		case "url":
			v = a.URL
		case "prompt":
			v = a.Prompt
		case "description":
			v = a.Description
		}
		if v != "" {
			return string(v)
		}
	}
	return ""
}

// argText is an input field read as text: a string, or an argv-style list
// of strings joined by spaces; anything else reads as empty.
type argText string

// UnmarshalJSON implements json.Unmarshaler.
func (t *argText) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if json.Unmarshal(b, &s) == nil {
			*t = argText(s)
		}
	case len(b) > 0 && b[0] == '[':
		var parts []any
		if json.Unmarshal(b, &parts) == nil {
			words := make([]string, 0, len(parts))
			for _, p := range parts {
				if s, ok := p.(string); ok {
					words = append(words, s)
				}
			}
			*t = argText(strings.Join(words, " "))
		}
	}
	return nil
}

// DescribeTool fills a tool call update's name, kind, title, locations and
// input from the harness-native name and its JSON input.
//
// The input's fields are first decoded as plain strings that refer to the
// input instead of copies (the update keeps the input as RawInput, so they
// keep nothing more alive); an input with a field of another type (an
// argv-style list) is decoded again field by field as argText.
func DescribeTool(u *event.Update, name string, input json.RawMessage) {
	u.ToolName = name
	u.ToolKind = ToolKindOf(name)
	if Present(input) {
		u.RawInput = input
	}
	var args toolArgs[string]
	if len(input) == 0 || input[0] != '{' || json.UnmarshalOf(input, &args, json.DecodeNoCopyString()) == nil {
		describeArgs(u, name, &args)
		return
	}
	var loose toolArgs[argText]
	_ = json.Unmarshal(input, &loose) // a malformed input just gives no title
	describeArgs(u, name, &loose)
}

// describeArgs fills the title and locations of a tool call from its
// decoded input.
func describeArgs[T ~string](u *event.Update, name string, args *toolArgs[T]) {
	u.Title = toolTitle(name, u.ToolKind, args)
	if p := args.get(pathKeys...); p != "" {
		u.Locations = []event.Location{{Path: p}}
	}
}

// toolTitle is a short human description of a call: "Run: npm test".
func toolTitle[T ~string](name string, kind event.ToolKind, args *toolArgs[T]) string {
	var verb string
	var keys []string
	switch kind {
	case event.ToolExecute:
		verb, keys = "Run", commandKeys
	case event.ToolRead:
		verb, keys = "Read", pathKeys
	case event.ToolEdit:
		verb, keys = "Edit", pathKeys
		if strings.EqualFold(name, "write") || strings.EqualFold(name, "write_file") || strings.EqualFold(name, "create") {
			verb = "Write"
		}
	case event.ToolSearch:
		verb, keys = "Search", []string{"pattern", "query", "glob", "path", "directory_path", "dir_path"}
	case event.ToolFetch:
		verb, keys = "Fetch", []string{"url", "query", "prompt"}
	case event.ToolThink:
		verb, keys = "Task", []string{"description", "prompt"}
	case event.ToolDelete:
		verb, keys = "Delete", pathKeys
	case event.ToolMove:
		verb, keys = "Move", pathKeys
	}
	obj := args.get(keys...)
	if verb == "" || obj == "" {
		return name
	}
	return verb + ": " + FirstLine(obj)
}

// FirstLine returns the first line of s, " …" marking the lines left
// out. It never cuts the line: a cut here would come before redaction,
// which then no longer recognises a secret straddling it (a token's first
// 33 characters would be kept). The summary redacts a title, then cuts it
// (core/summary clipText, MaxTitle).
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}

// TodoEntries reads a todo-list tool's `todos[{content|title, status}]`
// input as plan entries; nil when it holds none.
func TodoEntries(params json.RawMessage) []event.PlanEntry {
	var p struct {
		Todos []struct {
			Content string `json:"content"`
			Title   string `json:"title"`
			Status  string `json:"status"`
		} `json:"todos"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.Todos) == 0 {
		return nil
	}
	entries := make([]event.PlanEntry, 0, len(p.Todos))
	for _, t := range p.Todos {
		c := t.Content
		if c == "" {
			c = t.Title
		}
		entries = append(entries, event.PlanEntry{Content: c, Status: t.Status})
	}
	return entries
}
