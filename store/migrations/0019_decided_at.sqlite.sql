-- A target's current decision is its latest by time, then by id (core/review
-- Decision.Later), not the last one stored: a decision read back from an
-- old export (`sift decisions import`) is stored after today's but never
-- displaces it. decision_latest repeats the time of the decision it points
-- at, so that whether a session-level review closed a follow-up
-- (store/retention.go openFollowupSQL) is decided by time too.
ALTER TABLE decision_latest ADD COLUMN decided_at INTEGER NOT NULL DEFAULT 0;
UPDATE decision_latest SET decided_at = COALESCE((SELECT d.created_at FROM review_decisions d WHERE d.id = decision_latest.decision_id), 0);
