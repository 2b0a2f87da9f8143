.read opencode-schema.sql
-- The rows of one of ccusage's tests (PROVENANCE.md).
INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES ('channel-session-a', 'global', 'channel-session-a', '/workspace', '', '1.18.33', 1767312000000, 1767312000000);
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('channel-msg-1', 'channel-session-a', 1767312000000, 1767312000000, '{"providerID":"anthropic","modelID":"claude-sonnet-4-20250514","time":{"created":1767312000000},"tokens":{"input":80,"output":40}}');
