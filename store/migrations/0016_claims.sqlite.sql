-- Reviewing together (issue 18): a reviewer claims a session they are
-- reviewing, so that the others of a team leave it to them.
--
-- review_claims holds each session's current claim, at most one: who
-- holds it (reviewer_id), from which machine (host, its name), since when
-- and until when. A claim ends when its reviewer releases it or decides
-- the session (the row goes), or when expires_at passes: every read
-- compares it with the clock, so an expired row is no claim and the next
-- claim replaces it. Claims are not history, unlike decisions: nothing
-- but their current state is kept.
CREATE TABLE review_claims (
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  reviewer_id  TEXT NOT NULL,
  host         TEXT NOT NULL DEFAULT '',
  claimed_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  PRIMARY KEY (work_item_id, file_name)
);
-- Every read of claims is by session (a page's work items, the filters'
-- correlated lookups): the primary key is their index.
