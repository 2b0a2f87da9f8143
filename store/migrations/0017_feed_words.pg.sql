-- The change feed (store/pg_feed.go): every write to what the inbox shows
-- notifies the channel sift_changed, inside the writer's transaction, so
-- that the notice goes out when the write commits and never for one that
-- rolls back. PostgreSQL folds a transaction's identical notices into
-- one, so an import's batch wakes each listening inbox once. The trigger
-- is per row: a statement that changes nothing (the reaping of stale runs
-- at every open, which usually finds none) notifies no one.
CREATE FUNCTION sift_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sift_changed', '');
  RETURN NULL;
END $$;

DO $$
DECLARE
  t TEXT;
BEGIN
  FOREACH t IN ARRAY ARRAY['work_items', 'work_item_costs', 'agent_stream_summaries', 'review_events',
      'review_decisions', 'decision_latest', 'review_claims'] LOOP
    -- review_claims is there once the claims' migration ran before this one.
    IF to_regclass(t) IS NOT NULL THEN
      EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION sift_changed()',
        t || '_changed', t);
    END IF;
  END LOOP;
END $$;

-- A search document's words: written by the store with the document
-- (store/pg_words.go) when it can make them as the expression below does,
-- else computed here, as the generated column of 0001 computed them. A
-- write that changes the body and not the words recomputes them.
ALTER TABLE search_fts DROP COLUMN words;
ALTER TABLE search_fts ADD COLUMN words tsvector;
CREATE FUNCTION search_fts_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.words IS NULL OR (TG_OP = 'UPDATE' AND NEW.body IS DISTINCT FROM OLD.body
      AND NEW.words IS NOT DISTINCT FROM OLD.words) THEN
    NEW.words := to_tsvector('simple', regexp_replace(lower(NEW.body), '[^[:alnum:]]+', ' ', 'g'));
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER search_fts_words BEFORE INSERT OR UPDATE ON search_fts
  FOR EACH ROW EXECUTE FUNCTION search_fts_words();
-- The words compress with lz4 as the body does, where the server has it.
DO $$
BEGIN
  ALTER TABLE search_fts ALTER COLUMN words SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
UPDATE search_fts SET words = NULL;
CREATE INDEX search_fts_words ON search_fts USING gin (words);
