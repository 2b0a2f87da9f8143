-- usage_files holds the token usage of each imported agent history file
-- (Claude Code transcripts, Codex rollouts, Gemini CLI chats): one row per
-- file, its model calls packed into one blob, so that an import of a large
-- history writes one row per file rather than one per message. `sift usage`
-- reads them back, removes the messages counted twice (the same message id
-- and request id in two files, as ccusage does: the file with the earliest
-- timestamp wins) and totals them per day, session, project or model.
CREATE TABLE usage_files (
  path          TEXT PRIMARY KEY,
  work_item_id  TEXT NOT NULL,
  file_name     TEXT NOT NULL,
  agent_kind    TEXT NOT NULL,
  session_id    TEXT,
  -- parent_tool_call_id links a subagent's file to the call that started
  -- it (the Task call named by the parent file's agent_progress lines).
  parent_tool_call_id TEXT,
  -- first_at is the earliest timestamp of any line of the file (unix ms),
  -- the order ccusage reads files in; NULL sorts last.
  first_at      INTEGER,
  -- models names the models of the entries, one per line; an entry refers
  -- to one by its 0-based position.
  models        TEXT NOT NULL,
  entry_count   INTEGER NOT NULL,
  -- entries is a sequence of model calls, each: varint timestamp (unix
  -- ms), 8-byte little-endian dedup key (FNV-1a of "messageId:requestId",
  -- 0 when either is missing), then uvarints model index, uncached input,
  -- output, cache-creation and cache-read tokens.
  entries       BLOB NOT NULL
);
CREATE INDEX usage_files_first ON usage_files (first_at, path);
