-- The twin of store/migrations/0016_claims.sqlite.sql: each session's current
-- claim by a reviewer, live until expires_at (unix ms).
CREATE TABLE review_claims (
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  reviewer_id  TEXT NOT NULL,
  host         TEXT NOT NULL DEFAULT '',
  claimed_at   BIGINT NOT NULL,
  expires_at   BIGINT NOT NULL,
  PRIMARY KEY (work_item_id, file_name)
);
