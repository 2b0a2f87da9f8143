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
