-- The search index keeps no copy of the text it indexes (store/search_text.go):
-- the full-text table of 0008 stored each document whole, with its parts,
-- beside its index (twice the indexed text in all). A document is now
-- stored once, compressed, in search_text, and search_fts is contentless.

-- search_docs keeps a copy of the columns of its summary that the static
-- filters read (agent:, flag:, outcome:, since:, cost>), written with the
-- document in the import's transaction (nothing else changes them): a
-- search's count and its few matches are filtered on the document's row,
-- a lookup by id, before any summary is looked up by its key.
ALTER TABLE search_docs ADD COLUMN agent_kind TEXT;
ALTER TABLE search_docs ADD COLUMN flags TEXT;
ALTER TABLE search_docs ADD COLUMN outcome TEXT;
ALTER TABLE search_docs ADD COLUMN activity_at INTEGER;
ALTER TABLE search_docs ADD COLUMN estimated_usd REAL;
UPDATE search_docs SET (agent_kind, flags, outcome, activity_at, estimated_usd) = (SELECT s.agent_kind, s.flags, s.outcome,
  s.activity_at, s.estimated_usd FROM agent_stream_summaries s WHERE s.work_item_id = search_docs.work_item_id AND s.file_name = search_docs.file_name);

-- search_text is the document of a search_docs row (same id): its text,
-- its tags (words standing for its agent, flags and outcome, which the
-- index answers with its words) and its parts, compressed. A document
-- added is indexed by its writer, many in one statement (store/search.go);
-- its triggers keep the index in step after: one replaced or deleted has
-- its old words taken out at once (secure-delete, as in 0008: a redacted
-- secret or a purged session's words do not stay in the file).
CREATE TABLE search_text (
  id  INTEGER PRIMARY KEY,
  doc BLOB NOT NULL
);

INSERT INTO search_text (id, doc) SELECT f.rowid, sift_search_pack(f.body, sift_search_tags_of(d.agent_kind, d.flags, d.outcome), f.parts)
  FROM search_fts f JOIN search_docs d ON d.id = f.rowid;

DROP TRIGGER search_docs_gone;
DROP TABLE search_fts;

-- Words are runs of letters and digits, case folded, accents kept, as in
-- 0008; the phrase queries need their positions (detail=full).
CREATE VIRTUAL TABLE search_fts USING fts5(body, tags, content = '', tokenize = 'unicode61 remove_diacritics 0');
INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO search_fts (rowid, body, tags) SELECT id, sift_search_body(doc), sift_search_tags(doc) FROM search_text;

CREATE TRIGGER search_text_changed AFTER UPDATE OF doc ON search_text BEGIN
  INSERT INTO search_fts (search_fts, rowid, body, tags) VALUES ('delete', old.id, sift_search_body(old.doc), sift_search_tags(old.doc));
  INSERT INTO search_fts (rowid, body, tags) VALUES (new.id, sift_search_body(new.doc), sift_search_tags(new.doc));
END;

CREATE TRIGGER search_text_gone AFTER DELETE ON search_text BEGIN
  INSERT INTO search_fts (search_fts, rowid, body, tags) VALUES ('delete', old.id, sift_search_body(old.doc), sift_search_tags(old.doc));
END;

-- A session that goes (a sweep, a purge) takes its document with it.
CREATE TRIGGER search_docs_gone AFTER DELETE ON search_docs BEGIN
  DELETE FROM search_text WHERE id = old.id;
END;

-- The old table's pages go back to the file system.
PRAGMA incremental_vacuum;
