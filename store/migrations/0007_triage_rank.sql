-- triage_rank is the inbox's triage order in one indexed column: 1 for a
-- flagged session (a flag, or an open needs_followup decision on it, a turn
-- or a tool call) without a session-level decision, 0 for every other. The
-- order is rank, then cost, largest first: one read of summaries_by_triage,
-- which also holds what the inbox's flagged and undecided counts read.
-- The store recomputes the rank on every write that changes it
-- (store/triage.go); this is the same expression, for the rows already
-- stored.
ALTER TABLE agent_stream_summaries ADD COLUMN triage_rank INTEGER NOT NULL DEFAULT 0;
-- tool_names holds the distinct tool names of the session's calls, a JSON
-- array, for the inbox's `/` filter (store/filter.go), which then never
-- reads the tool calls themselves.
ALTER TABLE agent_stream_summaries ADD COLUMN tool_names TEXT NOT NULL DEFAULT '[]';
UPDATE agent_stream_summaries AS s SET
  tool_names = sift_tool_names(s.tool_calls_json),
  triage_rank = CASE WHEN NOT EXISTS (SELECT 1 FROM decision_latest l
      WHERE l.work_item_id = s.work_item_id AND l.file_name = s.file_name AND l.turn_id = '' AND l.tool_call_id = '')
    AND (s.flagged = 1 OR EXISTS (SELECT 1 FROM decision_latest f
      WHERE f.decision = 'needs_followup' AND f.work_item_id = s.work_item_id AND f.file_name = s.file_name))
    THEN 1 ELSE 0 END;
CREATE INDEX summaries_by_triage ON agent_stream_summaries (triage_rank, estimated_usd, work_item_id, file_name, flagged);
