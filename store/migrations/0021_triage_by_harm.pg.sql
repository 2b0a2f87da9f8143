-- The twin of store/migrations/0021_triage_by_harm.sqlite.sql: the triage
-- rank of the rows already stored, by the rule of store/triage.go
-- (triageRankSQL): tier times four, plus two for a captured run, plus one
-- for an unknown cost.
UPDATE agent_stream_summaries AS s SET triage_rank = (CASE WHEN s.live = 'running' AND s.live_wait != '' THEN 12
    WHEN s.review_state != '' THEN 0
    WHEN s.live != 'running' AND (s.live = 'interrupted' OR s.outcome IN ('failed', 'died_before_start', 'interrupted')) THEN 8
    WHEN (s.flagged = 1 OR EXISTS (SELECT 1 FROM decision_latest l WHERE l.decision = 'needs_followup'
      AND l.work_item_id = s.work_item_id AND l.file_name = s.file_name
      AND NOT EXISTS (SELECT 1 FROM decision_latest r WHERE r.work_item_id = l.work_item_id
        AND r.file_name = l.file_name AND r.turn_id = '' AND r.tool_call_id = '' AND r.decision = 'reviewed'
        AND (r.decided_at > l.decided_at OR r.decided_at = l.decided_at AND r.decision_id > l.decision_id)))) THEN 4 ELSE 0 END
  + CASE WHEN s.agent_kind LIKE '%-history' THEN 0 ELSE 2 END
  + CASE WHEN s.estimated_usd IS NULL THEN 1 ELSE 0 END);
