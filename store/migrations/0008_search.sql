-- The search index (store/search.go): one document per session, the text
-- core/search.NewDoc builds of it (prompts, what the model said, tool
-- calls, errors, flags, notes, its names), one part per line.
--
-- search_docs holds each session's document id and where each line of its
-- text is in the session (parts: a JSON array, one entry per line, its kind
-- and the turns and tool calls it occurs at). It goes with its summary
-- (the foreign key), and takes its text out of the index with it (the
-- trigger): a swept or purged session is not found.
CREATE TABLE search_docs (
  id           INTEGER PRIMARY KEY,
  work_item_id TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  parts        TEXT NOT NULL,
  UNIQUE (work_item_id, file_name),
  FOREIGN KEY (work_item_id, file_name) REFERENCES agent_stream_summaries (work_item_id, file_name) ON DELETE CASCADE
);

-- The full-text index over the documents' text, rowid = search_docs.id.
-- Words are runs of letters and digits, case folded, accents kept.
-- secure-delete removes a deleted document's words from the index at
-- once, rather than at a later merge: a purged session's text, or a
-- secret redacted afterwards, does not stay in the file.
CREATE VIRTUAL TABLE search_fts USING fts5(body, tokenize = 'unicode61 remove_diacritics 0');
INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 1);

CREATE TRIGGER search_docs_gone AFTER DELETE ON search_docs BEGIN
  DELETE FROM search_fts WHERE rowid = old.id;
END;

-- Sessions stored before the index are indexed from their stored summaries
-- once (Store.IndexMissing); this marks that it is to do.
INSERT INTO meta (key, value) SELECT 'search_backfill', '1' WHERE EXISTS (SELECT 1 FROM agent_stream_summaries);
