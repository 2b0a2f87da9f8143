-- triage_rank is the inbox's triage order in one indexed column: 1 for a
-- flagged session (a flag, or an open needs_followup decision on it, a turn
-- or a tool call) without a session-level decision, 0 for every other. The
-- order is rank, then cost, largest first: one read of summaries_by_triage,
-- which also holds what the inbox's flagged and undecided counts read.
-- The store recomputes the rank on every write that changes it
-- (store/triage.go); this is the same expression, for the rows already
-- stored.
ALTER TABLE agent_stream_summaries ADD COLUMN triage_rank INTEGER NOT NULL DEFAULT 0;
UPDATE agent_stream_summaries AS s SET triage_rank = 1
  WHERE NOT EXISTS (SELECT 1 FROM decision_latest l
      WHERE l.work_item_id = s.work_item_id AND l.file_name = s.file_name AND l.turn_id = '' AND l.tool_call_id = '')
    AND (s.flagged = 1 OR EXISTS (SELECT 1 FROM decision_latest f
      WHERE f.decision = 'needs_followup' AND f.work_item_id = s.work_item_id AND f.file_name = s.file_name));
CREATE INDEX summaries_by_triage ON agent_stream_summaries (triage_rank, estimated_usd, work_item_id, file_name, flagged);

-- session_filter holds what the inbox's `/` filter reads besides the
-- summary's own columns: the distinct tool names of the session's calls, a
-- JSON array (store/filter.go), so that a filter never reads the tool
-- calls. It is a table of its own, written after the summary, so that the
-- summary's large row is written once.
CREATE TABLE session_filter (
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  tool_names   TEXT NOT NULL,
  PRIMARY KEY (work_item_id, file_name),
  FOREIGN KEY (work_item_id, file_name) REFERENCES agent_stream_summaries (work_item_id, file_name) ON DELETE CASCADE
);
INSERT INTO session_filter (work_item_id, file_name, tool_names)
  SELECT work_item_id, file_name, sift_tool_names(tool_calls_json) FROM agent_stream_summaries;
