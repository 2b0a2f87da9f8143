-- An invocation recorded before its stream file was known stored the file
-- name "." (the base name of an empty path) instead of NULL; a summary
-- claims only an unnamed row or its own, so those rows are unnamed again.
UPDATE work_item_costs SET file_name = NULL WHERE file_name = '.';
