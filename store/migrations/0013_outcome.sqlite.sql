-- The outcome (issue 14) replaces the status: completed, failed,
-- interrupted, died_before_start or unknown, decided from the run's
-- terminal events (core/summary/outcome.go), with outcome_rank its urgency
-- for the outcome sort (summary.Outcome.Rank).

-- The column is renamed: the indexes that hold it (summaries_search) follow.
ALTER TABLE agent_stream_summaries RENAME COLUMN status TO outcome;
ALTER TABLE agent_stream_summaries ADD COLUMN outcome_rank INTEGER NOT NULL DEFAULT 0;

-- Rows already stored are mapped by the evidence the row holds:
--   success                                  -> completed
--   error, exit 129/130/131/137/143          -> interrupted (a signal)
--   error, no turn and no tool call          -> died_before_start
--   error                                    -> failed
--   incomplete with an unfinished tool call  -> interrupted
--   incomplete, unknown                      -> unknown
-- A stored turns_json is '[]' when the session had no turn (a longer one
-- is packed: it has turns).
UPDATE agent_stream_summaries SET outcome = CASE
    WHEN outcome = 'success' THEN 'completed'
    WHEN outcome = 'error' AND json_valid(brief_json)
      AND json_extract(brief_json, '$.exitCode') IN (129, 130, 131, 137, 143) THEN 'interrupted'
    WHEN outcome = 'error' AND tool_call_count = 0 AND turns_json IN ('[]', 'null', '') THEN 'died_before_start'
    WHEN outcome = 'error' THEN 'failed'
    WHEN outcome = 'incomplete' AND (' ' || flags || ' ') LIKE '% unfinished_tool %' THEN 'interrupted'
    ELSE 'unknown' END;

UPDATE agent_stream_summaries SET outcome_rank = CASE outcome
    WHEN 'failed' THEN 5 WHEN 'died_before_start' THEN 4 WHEN 'interrupted' THEN 3
    WHEN 'unknown' THEN 2 WHEN 'completed' THEN 1 ELSE 0 END;

-- The summary JSON the lists and the API serve says the same: outcome for
-- status, the evidence that it was mapped, and no flag notes yet.
UPDATE agent_stream_summaries SET brief_json = json_set(json_remove(brief_json, '$.status'),
    '$.outcome', outcome,
    '$.outcomeEvidence', json_object('sentence', 'mapped from the status stored before outcomes; the next import recomputes it', 'line', 0),
    '$.flagNotes', json('[]'))
  WHERE json_valid(brief_json);

-- The next import reads again the files of the sessions whose outcome the
-- row could not tell (unknown, incomplete: on-disk histories, cut streams)
-- and of the flagged ones, which have no flag sentences yet: size -1 is
-- the ingest index's mark for a file to read again (as a rebuild sets it).
UPDATE stream_files SET size = -1 WHERE EXISTS (SELECT 1 FROM agent_stream_summaries s
  WHERE s.work_item_id = stream_files.work_item_id AND s.file_name = stream_files.file_name
    AND (s.outcome IN ('unknown', 'interrupted') OR s.flagged = 1));

-- The outcome sort (key 8): most urgent first, ties by start, as the
-- stalls, errors and approvals orders.
CREATE INDEX summaries_by_outcome ON agent_stream_summaries (outcome_rank, sort_started, work_item_id, file_name);
