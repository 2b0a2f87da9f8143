.read opencode-schema.sql
-- The rows of one of ccusage's tests (PROVENANCE.md).
INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES ('session-a', 'global', 'session-a', '/workspace', '', '7.7.7', 1767312000000, 1767312000000);
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('row-1', 'session-a', 1767312000000, 1767312000000, '{"id":"msg-1","role":"assistant","providerID":"openai","modelID":"gpt-5","time":{"created":1767312000000},"tokens":{"total":234}}');
