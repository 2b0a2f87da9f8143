-- purged_files remembers the stream files of sessions removed with `sift
-- purge` that stay on disk because sift does not own them (an agent's own
-- history, a file imported from elsewhere): imports skip these paths, so a
-- purged session does not come back.
CREATE TABLE purged_files (
  path         TEXT PRIMARY KEY,
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  purged_at    INTEGER NOT NULL
);
