-- Decisions that flow (issue 14): undo, the review state a session's turn
-- and tool-call decisions roll up to, and orders that break ties by time.

-- An undo is a decision row that withdraws an earlier one: supersedes
-- names the decision it withdraws (0 on every other row), and its decision
-- column repeats the withdrawn kind, so that the CHECK of the three kinds
-- holds and the table stays append-only. A target's current decision
-- (decision_latest) is its latest row that is neither an undo nor
-- withdrawn (store/decisions.go, core/review.Current).
ALTER TABLE review_decisions ADD COLUMN supersedes INTEGER NOT NULL DEFAULT 0;
CREATE INDEX review_decisions_supersedes ON review_decisions (supersedes) WHERE supersedes != 0;

-- review_state is the session's review state (core/review.State): the kind
-- of its session-level decision, else the decisions on its flagged turns
-- rolled up once every flagged turn is decided, else '' (undecided). The
-- undecided count and filter and the triage rank read it. The store
-- recomputes it with the rank (store/triage.go); this is the same
-- expression, for the rows already stored.
ALTER TABLE agent_stream_summaries ADD COLUMN review_state TEXT NOT NULL DEFAULT '';
UPDATE agent_stream_summaries AS s SET review_state = COALESCE((SELECT sift_review_state(s.turns_json, s.tool_calls_json,
    json_group_array(json_array(l.turn_id, l.tool_call_id, l.decision)))
  FROM decision_latest l WHERE l.work_item_id = s.work_item_id AND l.file_name = s.file_name HAVING COUNT(*) > 0), '')
  WHERE EXISTS (SELECT 1 FROM decision_latest l WHERE l.work_item_id = s.work_item_id AND l.file_name = s.file_name);

-- The triage rank now reads the review state, and a needs_followup that a
-- later session-level review closed no longer flags its session: only
-- sessions with decisions change.
UPDATE agent_stream_summaries AS s SET triage_rank = CASE WHEN s.review_state = '' AND (s.flagged = 1
    OR EXISTS (SELECT 1 FROM decision_latest l WHERE l.decision = 'needs_followup'
      AND l.work_item_id = s.work_item_id AND l.file_name = s.file_name
      AND NOT EXISTS (SELECT 1 FROM decision_latest r WHERE r.work_item_id = l.work_item_id AND r.file_name = l.file_name
        AND r.turn_id = '' AND r.tool_call_id = '' AND r.decision = 'reviewed' AND r.decision_id > l.decision_id)))
  THEN 1 ELSE 0 END
  WHERE EXISTS (SELECT 1 FROM decision_latest l WHERE l.work_item_id = s.work_item_id AND l.file_name = s.file_name);

-- The inbox's counts read the review state from the triage index.
DROP INDEX summaries_by_triage;
CREATE INDEX summaries_by_triage ON agent_stream_summaries (triage_rank, estimated_usd, work_item_id, file_name, flagged, review_state);

-- Sessions with as many stalls, errors or approvals are ordered by their
-- start: the indexes of those orders hold it.
DROP INDEX summaries_by_stalls;
CREATE INDEX summaries_by_stalls ON agent_stream_summaries (stall_count, sort_started, work_item_id, file_name);
DROP INDEX summaries_by_errors;
CREATE INDEX summaries_by_errors ON agent_stream_summaries (error_count, sort_started, work_item_id, file_name);
DROP INDEX summaries_by_approvals;
CREATE INDEX summaries_by_approvals ON agent_stream_summaries (approval_count, sort_started, work_item_id, file_name);

-- The search's covering index (0008) holds the review state too: the
-- undecided filter of a search reads it there.
DROP INDEX summaries_search;
CREATE INDEX summaries_search ON agent_stream_summaries (work_item_id, file_name, triage_rank, estimated_usd,
  sort_started, total_duration_ms, total_tokens, stall_count, error_count, approval_count, flagged, activity_at,
  agent_kind, status, model, flags, review_state);
