.read opencode-schema.sql
-- The rows of one of ccusage's tests (PROVENANCE.md).
INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES ('session-a', 'global', 'session-a', '/workspace', '', '1.18.33', 1767312000000, 1767312000000);
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('message-a', 'session-a', 1767312000000, 1767312000000, '{"id":"message-a","sessionID":"session-a","providerID":"openai","modelID":"gpt-test","time":{"created":0},"tokens":{"total":123}}');
