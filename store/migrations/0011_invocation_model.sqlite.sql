-- model is the model an invocation asked for, as `sift run` read it at
-- start (the CLI's --model flag, its environment, else its configuration
-- file at that moment); model_source says where it was read ("--model",
-- "$GEMINI_MODEL", "~/.codex/config.toml"). Both are null for rows the
-- importer wrote and for runs recorded before this migration: sift never
-- guesses an old stream's model from today's configuration.
ALTER TABLE work_item_costs ADD COLUMN model TEXT;
ALTER TABLE work_item_costs ADD COLUMN model_source TEXT;
