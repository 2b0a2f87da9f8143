-- The twin of store/migrations/0014_invocation_git.sqlite.sql: the git HEAD of
-- the work tree `sift run` started its agent in, before and after.
ALTER TABLE work_item_costs ADD COLUMN git_head_before TEXT;
ALTER TABLE work_item_costs ADD COLUMN git_head_after TEXT;
