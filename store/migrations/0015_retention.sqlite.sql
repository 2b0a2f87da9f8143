-- Retention that never surprises, and what imports and sweeps did
-- (issue 16).

-- host_id names the host that recorded a session (store.Owner's Host).
-- A sweep judges a session by its stream file ("its file is gone") only
-- when this host recorded it: a database shared later never lets one
-- machine sweep another's sessions for a file it cannot see. Rows stored
-- before this migration have none: they belong to the host whose sift
-- opened the database first after it (meta legacy_host, filled by
-- store.Open), since a database was one machine's until now.
ALTER TABLE agent_stream_summaries ADD COLUMN host_id TEXT;
INSERT INTO meta (key, value) VALUES ('legacy_host', '') ON CONFLICT (key) DO NOTHING;

-- sweep_runs records each retention pass (not a dry run): who ran it and
-- what it removed, for `sift sweep --status` and `sift status`. The store
-- keeps the latest few hundred.
CREATE TABLE sweep_runs (
  id               INTEGER PRIMARY KEY,
  started_at       INTEGER NOT NULL,
  elapsed_ms       INTEGER NOT NULL,
  -- runner is the command that swept: sift sweep, the inbox, sift serve.
  runner           TEXT NOT NULL,
  files_deleted    INTEGER NOT NULL,
  bytes_deleted    INTEGER NOT NULL,
  files_by_size    INTEGER NOT NULL,
  sessions_swept   INTEGER NOT NULL,
  -- events_swept counts the sessions whose review events went.
  events_swept     INTEGER NOT NULL,
  work_items_swept INTEGER NOT NULL,
  failures         INTEGER NOT NULL,
  first_failure    TEXT NOT NULL DEFAULT ''
);

-- import_runs records each import (core/ingest): where it looked and what
-- it found, read, skipped and could not read, for `sift status`.
CREATE TABLE import_runs (
  id           INTEGER PRIMARY KEY,
  started_at   INTEGER NOT NULL,
  elapsed_ms   INTEGER NOT NULL,
  -- source is logs (the logs folder), history (the agents' own
  -- histories), paths (files and folders named) or rebuild.
  source       TEXT NOT NULL,
  -- roots is a JSON array of the folders and files looked in.
  roots        TEXT NOT NULL,
  files_found  INTEGER NOT NULL,
  files_read   INTEGER NOT NULL,
  sessions     INTEGER NOT NULL,
  unchanged    INTEGER NOT NULL,
  unparseable  INTEGER NOT NULL,
  -- first_error is the first file that could not be read: "path: why".
  first_error  TEXT NOT NULL DEFAULT '',
  ignored      INTEGER NOT NULL,
  deferred     INTEGER NOT NULL,
  purged       INTEGER NOT NULL,
  -- store_error is set when the store itself failed and stopped it.
  store_error  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX import_runs_source ON import_runs (source, id);

-- The sweep's candidates: sessions past a tier, this host's, read in
-- this order from the index alone (the summary's row is large).
CREATE INDEX summaries_retention ON agent_stream_summaries (activity_at, work_item_id, file_name, host_id);
