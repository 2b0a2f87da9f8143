-- A live inbox (issue 16): runs in progress, and decisions that know how
-- far the reviewer had seen.

-- live is '' for a session whose stream is complete, 'running' while the
-- `sift run` that writes it is under way (the run rewrites the row as
-- lines arrive, at most once a second), 'interrupted' once its process was
-- found gone (ReapStaleRuns). It is kept apart from the summary's status
-- (and from the outcome that replaces it), which the stream alone decides.
-- live_tool is the tool a running session is in (its last call without a
-- result), live_wait what it waits for: 'approval' (a call that needs the
-- user's approval), 'stall' (no line for the stall threshold), else ''.
ALTER TABLE agent_stream_summaries ADD COLUMN live TEXT NOT NULL DEFAULT '';
ALTER TABLE agent_stream_summaries ADD COLUMN live_tool TEXT NOT NULL DEFAULT '';
ALTER TABLE agent_stream_summaries ADD COLUMN live_wait TEXT NOT NULL DEFAULT '';

-- seen_line is the session's last line when the reviewer decided: how far
-- they had seen (0 for decisions recorded before the column, which are
-- taken to have seen everything). decision_latest repeats it, so that the
-- review state reads it without the decision's row.
ALTER TABLE review_decisions ADD COLUMN seen_line INTEGER NOT NULL DEFAULT 0;
ALTER TABLE decision_latest ADD COLUMN seen_line INTEGER NOT NULL DEFAULT 0;

-- new_since is, for a session that grew after its decisions (a resumed
-- session, a re-run into the same file), the line its reviewer had seen:
-- the session is undecided again and the inbox marks it "new since your
-- decision". 0 for every other session.
ALTER TABLE agent_stream_summaries ADD COLUMN new_since INTEGER NOT NULL DEFAULT 0;

-- Finding the runs still open (ReapStaleRuns, at every open and while the
-- inbox is open) reads only them.
CREATE INDEX work_item_costs_open ON work_item_costs (id) WHERE ended_at IS NULL;
