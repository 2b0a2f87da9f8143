.read opencode-schema.sql
-- The rows of one of ccusage's tests (PROVENANCE.md).
INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES ('session-a', 'global', 'session-a', '/workspace', '', '1.18.33', 1767312000000, 1767312000000);
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('message-a', 'session-a', 1767312000000, 1767312000000, '{"id":"message-a","sessionID":"session-a","providerID":"github-copilot","modelID":"claude-sonnet-4.5","time":{"created":1767312000000},"tokens":{"input":100,"output":10,"cache":{"read":50,"write":25},"total":185},"cost":0}');
