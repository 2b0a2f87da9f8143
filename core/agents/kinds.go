package agents

// The kinds of the on-disk histories sift reads (a history's kind is its
// harness's followed by "-history", Kind.Harness), and the stream kinds
// agents.go does not list. They are declared here, not in each harness's
// folder, so that a caller names a kind without importing the harness.

// AiderHistory is Aider's own history: the chat history it appends to in
// the project it runs in (<git root>/.aider.chat.history.md), one session
// per "# aider chat started at" block.
const AiderHistory Kind = "aider-history"

// Amp is Sourcegraph's Amp (npm @sourcegraph/amp, later @ampcode/cli).
const Amp Kind = "amp"

// AmpHistory is the thread file Amp keeps of every thread:
// ~/.local/share/amp/threads/<thread id>.json, one JSON document.
const AmpHistory Kind = "amp-history"

// AntigravityHistory is the plaintext step log Google Antigravity (the IDE
// and agy, its CLI) keeps of each conversation, as sift renders it
// (core/agents/antigravity/brain.go).
const AntigravityHistory Kind = "antigravity-history"

// ClaudeHistory is the on-disk transcript format Claude Code writes under
// ~/.claude/projects/<project>/<session>.jsonl (and subagents/agent-*.jsonl).
const ClaudeHistory Kind = "claude-history"

// The histories of Cline and the extensions forked from it, which keep a
// folder per task under VS Code's globalStorage.
const (
	ClineHistory Kind = "cline-history"
	RooHistory   Kind = "roo-history"
	KiloHistory  Kind = "kilo-history"
)

// CodexHistory is the rollout format Codex writes for every session under
// $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl.
const CodexHistory Kind = "codex-history"

// CopilotHistory is the event log GitHub Copilot CLI keeps of every
// session: ~/.copilot/session-state/<session id>/events.jsonl (older
// builds: <session id>.jsonl straight in session-state).
const CopilotHistory Kind = "copilot-history"

// CrushHistory is Crush's own history: the sessions it keeps in each
// project's database (<project>/.crush/crush.db).
const CrushHistory Kind = "crush-history"

// CursorHistory is Cursor CLI's own history: the chats cursor-agent keeps,
// one SQLite database per chat, under ~/.cursor/chats.
const CursorHistory Kind = "cursor-history"

// DroidHistory is the session log Factory Droid keeps of every session:
// ~/.factory/sessions/<cwd, '/' as '-'>/<session id>.jsonl, with the
// session's token usage beside it in <session id>.settings.json.
const DroidHistory Kind = "droid-history"

// GeminiHistory is the chat format Gemini CLI records every session in:
// ~/.gemini/tmp/<project>/chats/session-*.jsonl (and, before it, one
// session-*.json document; see GeminiLegacyLines).
const GeminiHistory Kind = "gemini-history"

// GooseHistory is Goose's own history: the sessions it keeps in its
// sessions database (sessions/sessions.db, since 1.10).
const GooseHistory Kind = "goose-history"

// KimiHistory is the wire log Kimi CLI records of every session:
// ~/.kimi/sessions/<md5 of the work dir>/<session id>/wire.jsonl.
const KimiHistory Kind = "kimi-history"

// OpenCodeHistory is opencode's own history: the sessions it keeps in its
// database (opencode.db, since 1.2) or, before, in a JSON tree
// (storage/session, storage/message, storage/part).
const OpenCodeHistory Kind = "opencode-history"

// Pi is pi, the coding agent of badlogic/pi-mono (npm
// @mariozechner/pi-coding-agent).
const Pi Kind = "pi"

// PiHistory is the session format pi (badlogic/pi-mono's coding agent)
// records every session in: ~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl.
const PiHistory Kind = "pi-history"

// QwenHistory is the chat format Qwen Code records every session in:
// ~/.qwen/projects/<project>/chats/<session id>.jsonl.
const QwenHistory Kind = "qwen-history"
