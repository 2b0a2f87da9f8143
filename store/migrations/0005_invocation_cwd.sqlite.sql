-- cwd is the working directory `sift run` recorded for an invocation: the
-- folder a relative path the agent names resolves against (the inbox's
-- `e`). It is null for rows the importer wrote and for runs recorded
-- before this migration: a stream's own cwd is untrusted text.
ALTER TABLE work_item_costs ADD COLUMN cwd TEXT;
