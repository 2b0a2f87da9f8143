-- The twin of store/migrations/0013_outcome.sqlite.sql: the outcome replaces the
-- status, with outcome_rank its urgency. The rows stored before are
-- mapped by the same rules, in PostgreSQL's JSON functions; a brief_json
-- that is not JSON is left as it is, as SQLite's json_valid leaves it.
ALTER TABLE agent_stream_summaries RENAME COLUMN status TO outcome;
ALTER TABLE agent_stream_summaries ADD COLUMN outcome_rank BIGINT NOT NULL DEFAULT 0;

-- sift_jsonb is a text's JSON, or null when it is not JSON.
CREATE FUNCTION sift_jsonb(doc TEXT) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN doc::jsonb;
EXCEPTION WHEN others THEN
  RETURN NULL;
END $$;

UPDATE agent_stream_summaries SET outcome = CASE
    WHEN outcome = 'success' THEN 'completed'
    WHEN outcome = 'error' AND sift_jsonb(brief_json) ->> 'exitCode' IN ('129', '130', '131', '137', '143') THEN 'interrupted'
    WHEN outcome = 'error' AND tool_call_count = 0 AND turns_json IN ('[]'::bytea, 'null'::bytea, ''::bytea) THEN 'died_before_start'
    WHEN outcome = 'error' THEN 'failed'
    WHEN outcome = 'incomplete' AND (' ' || flags || ' ') LIKE '% unfinished_tool %' THEN 'interrupted'
    ELSE 'unknown' END;

UPDATE agent_stream_summaries SET outcome_rank = CASE outcome
    WHEN 'failed' THEN 5 WHEN 'died_before_start' THEN 4 WHEN 'interrupted' THEN 3
    WHEN 'unknown' THEN 2 WHEN 'completed' THEN 1 ELSE 0 END;

UPDATE agent_stream_summaries SET brief_json = ((sift_jsonb(brief_json) - 'status') || jsonb_build_object(
    'outcome', outcome,
    'outcomeEvidence', jsonb_build_object('sentence', 'mapped from the status stored before outcomes; the next import recomputes it', 'line', 0),
    'flagNotes', '[]'::jsonb))::text
  WHERE sift_jsonb(brief_json) IS NOT NULL;

-- The next import reads again the files whose outcome the row could not
-- tell and those of the flagged sessions.
UPDATE stream_files SET size = -1 WHERE EXISTS (SELECT 1 FROM agent_stream_summaries s
  WHERE s.work_item_id = stream_files.work_item_id AND s.file_name = stream_files.file_name
    AND (s.outcome IN ('unknown', 'interrupted') OR s.flagged = 1));

-- The outcome sort, nulls first as SQLite orders them (0001_init.sql).
CREATE INDEX summaries_by_outcome ON agent_stream_summaries (outcome_rank NULLS FIRST, sort_started NULLS FIRST,
  work_item_id NULLS FIRST, file_name NULLS FIRST);
