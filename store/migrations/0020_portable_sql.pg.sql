-- The store's SQL is portable since this version: what differs between
-- the engines is asked of the store's dialect (store/dialect.go), and
-- nothing rewrites a statement but its placeholders. The look-alikes of
-- SQLite's functions that PostgreSQL kept under SQLite's names
-- (0010_init.pg.sql) have no caller left and go.
DROP FUNCTION IF EXISTS json_extract(TEXT, TEXT);
DROP FUNCTION IF EXISTS json_set(TEXT, TEXT, TEXT);
DROP FUNCTION IF EXISTS json_object(TEXT, TEXT, TEXT, TEXT, TEXT, TEXT);
DROP FUNCTION IF EXISTS json_each(TEXT);
DROP AGGREGATE IF EXISTS sum(BOOLEAN);
DROP FUNCTION IF EXISTS sift_count_true(BIGINT, BOOLEAN);
DROP AGGREGATE IF EXISTS group_concat(TEXT, TEXT);
DROP FUNCTION IF EXISTS sift_concat(TEXT, TEXT, TEXT);
DROP FUNCTION IF EXISTS max(BIGINT, BIGINT);
