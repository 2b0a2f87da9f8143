-- The inbox's "started" order uses sort_started: the session's start, else
-- its last activity (a stream without timestamps and without an invocation
-- window has no start, yet belongs among the runs of its day rather than
-- after all of them). started_at itself stays null when unknown.
ALTER TABLE agent_stream_summaries ADD COLUMN sort_started INTEGER;
UPDATE agent_stream_summaries SET sort_started = COALESCE(started_at, activity_at);
DROP INDEX summaries_by_started;
CREATE INDEX summaries_by_started ON agent_stream_summaries (sort_started, work_item_id, file_name);
