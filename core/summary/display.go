package summary

import (
	"strings"

	"github.com/agentsift/sift/core/event"
)

// displayNames are the operator's names for tools, by lowercased
// harness-native name.
var displayNames = map[string]string{
	"bash": "Ran a command", "run_shell_command": "Ran a command", "shell": "Ran a command",
	"command_execution": "Ran a command", "exec_command": "Ran a command", "local_shell": "Ran a command",
	"execute": "Ran a command", "shelltoolcall": "Ran a command",
	"bashoutput": "Read command output", "taskoutput": "Read task output",
	"killshell": "Stopped a command", "killbash": "Stopped a command", "taskstop": "Stopped a task",
	"read": "Read a file", "read_file": "Read a file", "readfile": "Read a file", "view": "Read a file",
	"readtoolcall": "Read a file", "read_many_files": "Read files", "notebookread": "Read a notebook",
	"write": "Wrote a file", "write_file": "Wrote a file", "create": "Wrote a file", "writetoolcall": "Wrote a file",
	"edit": "Edited a file", "multiedit": "Edited a file", "replace": "Edited a file",
	"str_replace_editor": "Edited a file", "edittoolcall": "Edited a file", "notebookedit": "Edited a notebook",
	"apply_patch": "Applied a patch", "applypatch": "Applied a patch", "patch": "Applied a patch",
	"file_change": "Changed files",
	"glob":        "Listed files", "ls": "Listed files", "list": "Listed files", "list_directory": "Listed files",
	"globtoolcall": "Listed files", "lstoolcall": "Listed files", "find": "Found files",
	"grep": "Searched files", "search_file_content": "Searched files", "grep_search": "Searched files",
	"greptoolcall": "Searched files", "codebase_search": "Searched the codebase",
	"webfetch": "Fetched a web page", "web_fetch": "Fetched a web page", "fetch": "Fetched a web page",
	"fetchurl":  "Fetched a web page",
	"websearch": "Searched the web", "web_search": "Searched the web", "google_web_search": "Searched the web",
	"task": "Ran a subagent", "agent": "Ran a subagent",
	"todowrite": "Updated the todo list", "todo_list": "Updated the todo list", "todoread": "Read the todo list",
	"update_plan": "Updated the plan", "write_todos": "Updated the todo list",
	"exitplanmode": "Left plan mode", "enterplanmode": "Entered plan mode", "exitspecmode": "Left spec mode",
	"skill": "Used a skill", "askuserquestion": "Asked the user",
	"delete": "Deleted a file", "delete_file": "Deleted a file", "deletetoolcall": "Deleted a file",
	"move": "Moved a file", "rename": "Moved a file",
}

// kindNames name a tool by its ACP kind when its name is not known.
var kindNames = map[event.ToolKind]string{
	event.ToolRead: "Read a file", event.ToolEdit: "Edited a file", event.ToolDelete: "Deleted a file",
	event.ToolMove: "Moved a file", event.ToolSearch: "Searched files", event.ToolExecute: "Ran a command",
	event.ToolThink: "Thought it through", event.ToolFetch: "Fetched from the web",
	event.ToolSwitchMode: "Switched mode",
}

// DisplayName returns the short human name of a tool for the operator
// view: Bash → "Ran a command", Read → "Read a file", an MCP tool →
// "Used browser_task (browser-use)", an unknown tool → "Used <name>".
func DisplayName(name string, kind event.ToolKind) string {
	if d, ok := displayNames[strings.ToLower(name)]; ok {
		return d
	}
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if server, tool, ok := strings.Cut(rest, "__"); ok {
			return "Used " + tool + " (" + server + ")"
		}
	}
	if d, ok := kindNames[kind]; ok && kind != event.ToolOther {
		return d
	}
	if name == "" {
		return "Used a tool"
	}
	return "Used " + name
}

// ModelOrigin says where a summary's model was read, for display after
// "from": "the stream", or the flag, variable or file the invocation's
// model was read from ("--model", "~/.codex/config.toml"). It is empty
// without a model, and for a summary stored before sources were kept.
func (s *Summary) ModelOrigin() string {
	switch {
	case s.Model == "" || s.ModelSource == "":
		return ""
	case s.ModelSource == ModelFromStream:
		return "the stream"
	}
	return s.ModelSource
}
