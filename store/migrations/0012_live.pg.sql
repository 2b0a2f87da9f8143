-- The twin of store/migrations/0012_live.sqlite.sql: runs in progress (live,
-- live_tool, live_wait), how far a reviewer had seen when deciding
-- (seen_line, repeated in decision_latest) and the line a grown session's
-- reviewer had seen (new_since).
ALTER TABLE agent_stream_summaries ADD COLUMN live TEXT NOT NULL DEFAULT '';
ALTER TABLE agent_stream_summaries ADD COLUMN live_tool TEXT NOT NULL DEFAULT '';
ALTER TABLE agent_stream_summaries ADD COLUMN live_wait TEXT NOT NULL DEFAULT '';
ALTER TABLE review_decisions ADD COLUMN seen_line BIGINT NOT NULL DEFAULT 0;
ALTER TABLE decision_latest ADD COLUMN seen_line BIGINT NOT NULL DEFAULT 0;
ALTER TABLE agent_stream_summaries ADD COLUMN new_since BIGINT NOT NULL DEFAULT 0;

-- Finding the runs still open reads only them.
CREATE INDEX work_item_costs_open ON work_item_costs (id) WHERE ended_at IS NULL;
