-- Search documents written before this version may place their parts at
-- calls their session does not have: the ids were read after the import's
-- reader had moved on to another file, whose raw line text they then
-- were (core/search Doc.own). The mark has Store.IndexMissing check every
-- stored document once and build again, from the stored summary and the
-- document's own prompts and harness errors, each that names such a call.
INSERT INTO meta (key, value) SELECT 'search_repair', '1' WHERE EXISTS (SELECT 1 FROM search_docs)
  ON CONFLICT (key) DO NOTHING;
