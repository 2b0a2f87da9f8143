-- The twin of store/migrations/0011_invocation_model.sqlite.sql: the model an
-- invocation asked for and where `sift run` read it; null for imported
-- rows and runs recorded before.
ALTER TABLE work_item_costs ADD COLUMN model TEXT;
ALTER TABLE work_item_costs ADD COLUMN model_source TEXT;
