-- A target's current decision is its latest by time, then by id (core/review
-- Decision.Later): decision_latest repeats the time of the decision it
-- points at (as SQLite's 0019).
ALTER TABLE decision_latest ADD COLUMN decided_at BIGINT NOT NULL DEFAULT 0;
UPDATE decision_latest SET decided_at = COALESCE((SELECT d.created_at FROM review_decisions d WHERE d.id = decision_latest.decision_id), 0);
