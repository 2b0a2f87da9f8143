.read opencode-schema.sql
-- The rows of one of ccusage's tests (PROVENANCE.md).
INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES ('session-a', 'global', 'session-a', '/workspace', '', '7.7.7', 1767312000000, 1767312000000);
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('row-1', 'session-a', 1767312000000, 1767312000000, '{"id":"msg-1","role":"assistant","providerID":"anthropic","modelID":"claude-sonnet-4-20250514","time":{"created":1767312000000},"tokens":{"input":100,"output":50,"reasoning":5,"cache":{"read":10,"write":20}},"cost":0.02,"agent":"build"}');
