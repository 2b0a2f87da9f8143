-- git_head_before and git_head_after are the commits (HEAD) of the git work
-- tree `sift run` started its agent in, read before the run and after it:
-- what the run committed lies between them. Null when the folder is not in
-- a work tree, git is absent, or the run was recorded before this
-- migration.
ALTER TABLE work_item_costs ADD COLUMN git_head_before TEXT;
ALTER TABLE work_item_costs ADD COLUMN git_head_after TEXT;
