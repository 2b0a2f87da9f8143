-- schema of migration 21
-- Written by `go test ./store -run TestSchemaSnapshot -update` from a database
-- migrated from zero: edit the migrations, not this file.

CREATE TABLE schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL);

CREATE TABLE work_items (
  id            TEXT PRIMARY KEY,
  -- state is running while an invocation is under way, terminal after.
  state         TEXT NOT NULL DEFAULT 'terminal' CHECK (state IN ('running', 'terminal')),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);

CREATE TABLE work_item_costs (
  id                  INTEGER PRIMARY KEY,
  work_item_id        TEXT NOT NULL REFERENCES work_items(id) ON DELETE CASCADE,
  phase               TEXT NOT NULL,
  iteration           INTEGER,
  agent_kind          TEXT NOT NULL,
  file_name           TEXT,
  started_at          INTEGER,
  ended_at            INTEGER,
  exit_code           INTEGER,
  input_tokens        INTEGER,
  output_tokens       INTEGER,
  cached_input_tokens INTEGER,
  cost_usd            REAL,
  raw_metadata_json   TEXT NOT NULL DEFAULT '{}'
, cwd TEXT, model TEXT, model_source TEXT, git_head_before TEXT, git_head_after TEXT);

CREATE INDEX work_item_costs_match ON work_item_costs (work_item_id, phase, iteration, agent_kind);

CREATE TABLE agent_stream_summaries (
  work_item_id            TEXT NOT NULL REFERENCES work_items(id) ON DELETE CASCADE,
  file_name               TEXT NOT NULL,
  phase                   TEXT NOT NULL,
  iteration               INTEGER,
  agent_kind              TEXT NOT NULL,
  -- Nullable (the seed had NOT NULL): an unknown duration is null, never 0.
  total_duration_ms       INTEGER,
  time_to_first_token_ms  INTEGER,
  input_tokens            INTEGER,
  output_tokens           INTEGER,
  cached_input_tokens     INTEGER,
  estimated_usd           REAL,
  tool_calls_json         TEXT NOT NULL,
  stalls_json             TEXT NOT NULL,
  final_assistant_message TEXT,
  summarised_at           INTEGER NOT NULL,
  -- What the inbox sorts and filters on.
  session_id              TEXT,
  model                   TEXT,
  cost_source             TEXT NOT NULL,
  outcome                  TEXT NOT NULL,
  started_at              INTEGER,
  ended_at                INTEGER,
  -- activity_at is ended_at, else started_at, else the file's mtime: the
  -- session's age for retention and --since.
  activity_at             INTEGER NOT NULL,
  thinking_ms             INTEGER,
  executing_ms            INTEGER,
  total_tokens            INTEGER,
  tool_call_count         INTEGER NOT NULL,
  stall_count             INTEGER NOT NULL,
  error_count             INTEGER NOT NULL,
  approval_count          INTEGER NOT NULL,
  flags                   TEXT NOT NULL,
  flagged                 INTEGER NOT NULL,
  line_count              INTEGER NOT NULL,
  byte_count              INTEGER NOT NULL,
  path                    TEXT NOT NULL,
  -- brief_json is the summary JSON without tool calls, stalls and turns
  -- (the list row); turns_json holds the turns. GetSummary joins the four.
  brief_json              TEXT NOT NULL,
  turns_json              TEXT NOT NULL, sort_started INTEGER, triage_rank INTEGER NOT NULL DEFAULT 0, review_state TEXT NOT NULL DEFAULT '', live TEXT NOT NULL DEFAULT '', live_tool TEXT NOT NULL DEFAULT '', live_wait TEXT NOT NULL DEFAULT '', new_since INTEGER NOT NULL DEFAULT 0, outcome_rank INTEGER NOT NULL DEFAULT 0, host_id TEXT,
  PRIMARY KEY (work_item_id, file_name)
);

CREATE INDEX summaries_by_duration  ON agent_stream_summaries (total_duration_ms, work_item_id, file_name);

CREATE INDEX summaries_by_cost      ON agent_stream_summaries (estimated_usd, work_item_id, file_name);

CREATE INDEX summaries_by_tokens    ON agent_stream_summaries (total_tokens, work_item_id, file_name);

CREATE INDEX summaries_by_activity  ON agent_stream_summaries (activity_at);

CREATE INDEX summaries_by_file      ON agent_stream_summaries (file_name);

CREATE TABLE stream_files (
  path         TEXT PRIMARY KEY,
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  phase        TEXT NOT NULL,
  iteration    INTEGER,
  agent_kind   TEXT NOT NULL,
  size         INTEGER NOT NULL,
  mtime        INTEGER NOT NULL,
  imported_at  INTEGER NOT NULL
);

CREATE INDEX stream_files_session ON stream_files (work_item_id, file_name);

CREATE TABLE review_events (
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  events_json  TEXT NOT NULL,
  event_count  INTEGER NOT NULL,
  PRIMARY KEY (work_item_id, file_name),
  FOREIGN KEY (work_item_id, file_name) REFERENCES agent_stream_summaries (work_item_id, file_name) ON DELETE CASCADE
);

CREATE TABLE review_decisions (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  turn_id      TEXT NOT NULL DEFAULT '',
  tool_call_id TEXT NOT NULL DEFAULT '',
  decision     TEXT NOT NULL CHECK (decision IN ('reviewed', 'needs_followup', 'ignored')),
  note         TEXT NOT NULL DEFAULT '',
  reviewer_id  TEXT NOT NULL DEFAULT '',
  created_at   INTEGER NOT NULL
, supersedes INTEGER NOT NULL DEFAULT 0, seen_line INTEGER NOT NULL DEFAULT 0);

CREATE INDEX review_decisions_session ON review_decisions (work_item_id, file_name, id);

CREATE TRIGGER review_decisions_no_update BEFORE UPDATE ON review_decisions
BEGIN SELECT RAISE(ABORT, 'review_decisions is append-only'); END;

CREATE TABLE decision_latest (
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  turn_id      TEXT NOT NULL,
  tool_call_id TEXT NOT NULL,
  decision_id  INTEGER NOT NULL,
  decision     TEXT NOT NULL, seen_line INTEGER NOT NULL DEFAULT 0, decided_at INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (work_item_id, file_name, turn_id, tool_call_id)
);

CREATE INDEX decision_latest_followup ON decision_latest (decision, work_item_id, file_name);

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

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

CREATE INDEX summaries_by_started ON agent_stream_summaries (sort_started, work_item_id, file_name);

CREATE TABLE purged_files (
  path         TEXT PRIMARY KEY,
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  purged_at    INTEGER NOT NULL
);

CREATE TABLE session_filter (
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  tool_names   TEXT NOT NULL,
  PRIMARY KEY (work_item_id, file_name),
  FOREIGN KEY (work_item_id, file_name) REFERENCES agent_stream_summaries (work_item_id, file_name) ON DELETE CASCADE
);

CREATE TABLE search_docs (
  id           INTEGER PRIMARY KEY,
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL, agent_kind TEXT, flags TEXT, outcome TEXT, activity_at INTEGER, estimated_usd REAL,
  UNIQUE (work_item_id, file_name),
  FOREIGN KEY (work_item_id, file_name) REFERENCES agent_stream_summaries (work_item_id, file_name) ON DELETE CASCADE
);

CREATE INDEX review_decisions_supersedes ON review_decisions (supersedes) WHERE supersedes != 0;

CREATE INDEX summaries_by_triage ON agent_stream_summaries (triage_rank, estimated_usd, work_item_id, file_name, flagged, review_state);

CREATE INDEX summaries_by_stalls ON agent_stream_summaries (stall_count, sort_started, work_item_id, file_name);

CREATE INDEX summaries_by_errors ON agent_stream_summaries (error_count, sort_started, work_item_id, file_name);

CREATE INDEX summaries_by_approvals ON agent_stream_summaries (approval_count, sort_started, work_item_id, file_name);

CREATE INDEX summaries_search ON agent_stream_summaries (work_item_id, file_name, triage_rank, estimated_usd,
  sort_started, total_duration_ms, total_tokens, stall_count, error_count, approval_count, flagged, activity_at,
  agent_kind, outcome, model, flags, review_state);

CREATE INDEX work_item_costs_open ON work_item_costs (id) WHERE ended_at IS NULL;

CREATE INDEX summaries_by_outcome ON agent_stream_summaries (outcome_rank, sort_started, work_item_id, file_name);

CREATE TABLE sweep_runs (
  id               INTEGER PRIMARY KEY,
  started_at       INTEGER NOT NULL,
  elapsed_ms       INTEGER NOT NULL,
  -- runner is the command that swept: sift sweep, the inbox, sift serve.
  runner           TEXT NOT NULL,
  files_deleted    INTEGER NOT NULL,
  bytes_deleted    INTEGER NOT NULL,
  files_by_size    INTEGER NOT NULL,
  sessions_swept   INTEGER NOT NULL,
  -- events_swept counts the sessions whose review events went.
  events_swept     INTEGER NOT NULL,
  work_items_swept INTEGER NOT NULL,
  failures         INTEGER NOT NULL,
  first_failure    TEXT NOT NULL DEFAULT ''
);

CREATE TABLE import_runs (
  id           INTEGER PRIMARY KEY,
  started_at   INTEGER NOT NULL,
  elapsed_ms   INTEGER NOT NULL,
  -- source is logs (the logs folder), history (the agents' own
  -- histories), paths (files and folders named) or rebuild.
  source       TEXT NOT NULL,
  -- roots is a JSON array of the folders and files looked in.
  roots        TEXT NOT NULL,
  files_found  INTEGER NOT NULL,
  files_read   INTEGER NOT NULL,
  sessions     INTEGER NOT NULL,
  unchanged    INTEGER NOT NULL,
  unparseable  INTEGER NOT NULL,
  -- first_error is the first file that could not be read: "path: why".
  first_error  TEXT NOT NULL DEFAULT '',
  ignored      INTEGER NOT NULL,
  deferred     INTEGER NOT NULL,
  purged       INTEGER NOT NULL,
  -- store_error is set when the store itself failed and stopped it.
  store_error  TEXT NOT NULL DEFAULT ''
);

CREATE INDEX import_runs_source ON import_runs (source, id);

CREATE INDEX summaries_retention ON agent_stream_summaries (activity_at, work_item_id, file_name, host_id);

CREATE TABLE review_claims (
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  reviewer_id  TEXT NOT NULL,
  host         TEXT NOT NULL DEFAULT '',
  claimed_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  PRIMARY KEY (work_item_id, file_name)
);

CREATE TABLE search_text (
  id  INTEGER PRIMARY KEY,
  doc BLOB NOT NULL
);

CREATE VIRTUAL TABLE search_fts USING fts5(body, tags, content = '', tokenize = 'unicode61 remove_diacritics 0');

CREATE TRIGGER search_text_changed AFTER UPDATE OF doc ON search_text BEGIN
  INSERT INTO search_fts (search_fts, rowid, body, tags) VALUES ('delete', old.id, sift_search_body(old.doc), sift_search_tags(old.doc));
  INSERT INTO search_fts (rowid, body, tags) VALUES (new.id, sift_search_body(new.doc), sift_search_tags(new.doc));
END;

CREATE TRIGGER search_text_gone AFTER DELETE ON search_text BEGIN
  INSERT INTO search_fts (search_fts, rowid, body, tags) VALUES ('delete', old.id, sift_search_body(old.doc), sift_search_tags(old.doc));
END;

CREATE TRIGGER search_docs_gone AFTER DELETE ON search_docs BEGIN
  DELETE FROM search_text WHERE id = old.id;
END;

-- Seeds.
INSERT INTO meta (key, value) VALUES ('legacy_host', '');
INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 1);
