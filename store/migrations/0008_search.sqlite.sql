-- The search index (store/search.go): one document per session, the text
-- core/search.NewDoc builds of it (prompts, what the model said, tool
-- calls, errors, flags, notes, its names), one part per line.

-- search_docs maps each session to its document's id, in narrow rows: a
-- search joins through it for every session it looks at. It goes with its
-- summary (the foreign key), and takes its document out of the index with
-- it (the trigger): a swept or purged session is not found.
CREATE TABLE search_docs (
  id           INTEGER PRIMARY KEY,
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  UNIQUE (work_item_id, file_name),
  FOREIGN KEY (work_item_id, file_name) REFERENCES agent_stream_summaries (work_item_id, file_name) ON DELETE CASCADE
);

-- The full-text index, rowid = search_docs.id: body is the document's
-- text, one part per line; parts (not indexed) says where each line is in
-- the session, a JSON array of its kind and the turns and tool calls it
-- occurs at. Words are runs of letters and digits, case folded, accents
-- kept. secure-delete takes a deleted document's words out of the index
-- at once, rather than at a later merge: a purged session's text, or a
-- secret redacted afterwards, does not stay in the file.
CREATE VIRTUAL TABLE search_fts USING fts5(body, parts UNINDEXED, tokenize = 'unicode61 remove_diacritics 0');
INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 1);

CREATE TRIGGER search_docs_gone AFTER DELETE ON search_docs BEGIN
  DELETE FROM search_fts WHERE rowid = old.id;
END;

-- What a search reads of a summary, keyed by the session: every column it
-- sorts and filters on, so that neither the sort nor a filter reads the
-- summary's row (large: its tool calls, turns and list JSON).
CREATE INDEX summaries_search ON agent_stream_summaries (work_item_id, file_name, triage_rank, estimated_usd,
  sort_started, total_duration_ms, total_tokens, stall_count, error_count, approval_count, flagged, activity_at,
  agent_kind, status, model, flags);

-- Sessions stored before the index are indexed from their stored summaries
-- once (Store.IndexMissing); this marks that it is to do.
INSERT INTO meta (key, value) SELECT 'search_backfill', '1' WHERE EXISTS (SELECT 1 FROM agent_stream_summaries);
