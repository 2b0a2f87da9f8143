-- Times are INTEGER unix milliseconds (the seed schema's summarised_at TEXT
-- included).

CREATE TABLE work_items (
  id            TEXT PRIMARY KEY,
  -- state is running while an invocation is under way, terminal after.
  state         TEXT NOT NULL DEFAULT 'terminal' CHECK (state IN ('running', 'terminal')),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);

-- One row per agent invocation. raw_metadata_json.source names the writer:
-- "sift_run" for `sift run`, "agent_stream_analyser" for a row the importer
-- inserted because no invocation was recorded.
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
);
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
  status                  TEXT NOT NULL,
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
  turns_json              TEXT NOT NULL,
  PRIMARY KEY (work_item_id, file_name)
);
-- One index per sort key, ending in the primary key so that paging is
-- stable and the index alone yields the order in both directions.
CREATE INDEX summaries_by_duration  ON agent_stream_summaries (total_duration_ms, work_item_id, file_name);
CREATE INDEX summaries_by_cost      ON agent_stream_summaries (estimated_usd, work_item_id, file_name);
CREATE INDEX summaries_by_stalls    ON agent_stream_summaries (stall_count, work_item_id, file_name);
CREATE INDEX summaries_by_errors    ON agent_stream_summaries (error_count, work_item_id, file_name);
CREATE INDEX summaries_by_approvals ON agent_stream_summaries (approval_count, work_item_id, file_name);
CREATE INDEX summaries_by_tokens    ON agent_stream_summaries (total_tokens, work_item_id, file_name);
CREATE INDEX summaries_by_started   ON agent_stream_summaries (started_at, work_item_id, file_name);
CREATE INDEX summaries_by_activity  ON agent_stream_summaries (activity_at);
CREATE INDEX summaries_by_file      ON agent_stream_summaries (file_name);

-- The ingest index: one row per stream file read, so that a re-import
-- skips files whose size and mtime are unchanged.
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

-- The review events of one session (prompts, responses, tool calls,
-- approval stops), kept as one JSON array per session: written in one
-- insert, read in one read, swept after 48 h.
CREATE TABLE review_events (
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  events_json  TEXT NOT NULL,
  event_count  INTEGER NOT NULL,
  PRIMARY KEY (work_item_id, file_name),
  FOREIGN KEY (work_item_id, file_name) REFERENCES agent_stream_summaries (work_item_id, file_name) ON DELETE CASCADE
);

-- Decisions are append-only. They carry no foreign key: they outlive a
-- rebuild, which drops and re-creates the summaries.
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
);
CREATE INDEX review_decisions_session ON review_decisions (work_item_id, file_name, id);
CREATE TRIGGER review_decisions_no_update BEFORE UPDATE ON review_decisions
BEGIN SELECT RAISE(ABORT, 'review_decisions is append-only'); END;

-- decision_latest points at the latest decision per target (session, turn
-- or tool call). It is written in the same transaction as the decision and
-- can be recomputed from review_decisions.
CREATE TABLE decision_latest (
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  turn_id      TEXT NOT NULL,
  tool_call_id TEXT NOT NULL,
  decision_id  INTEGER NOT NULL,
  decision     TEXT NOT NULL,
  PRIMARY KEY (work_item_id, file_name, turn_id, tool_call_id)
);
CREATE INDEX decision_latest_followup ON decision_latest (decision, work_item_id, file_name);

-- meta holds small facts: the time of the last successful sweep.
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
