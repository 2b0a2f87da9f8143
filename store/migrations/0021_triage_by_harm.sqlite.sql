-- The triage order puts the worst first (issue 29). triage_rank is a
-- session's tier times four, plus two for a captured run (an agent's own
-- history, whose agent kind ends in -history, ranks below a captured run of
-- the same tier), plus one for an unknown cost (so that an unknown cost
-- never sinks a run below a known one of the same tier). The tiers, worst
-- first: 3 a running session that waits (an approval, a stall); 2 an
-- undecided run that failed, died before its start or was interrupted; 1
-- an undecided flagged session; 0 the rest. The order is still rank, then
-- cost, largest first: the index summaries_by_triage holds it. The store
-- recomputes the rank on every write that changes it (store/triage.go
-- triageRankSQL); this is the same expression, for the rows already
-- stored, whose review state is stored too.
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
