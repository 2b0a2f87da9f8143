-- Goose's sessions database, schema version 5, as SessionStorage::create
-- makes it (block/goose, crates/goose/src/session/session_manager.rs at
-- commit 0164300649cf5e4ab327105d9155779ab8bfde4b), with one session whose
-- messages are the content blocks of Goose's own tests (see PROVENANCE.md).
CREATE TABLE schema_version (
    version INTEGER PRIMARY KEY,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO schema_version (version) VALUES (5);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER,
    schedule_id TEXT,
    recipe_json TEXT,
    user_recipe_values_json TEXT
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER,
    metadata_json TEXT
);
CREATE INDEX idx_messages_session ON messages(session_id);
CREATE INDEX idx_messages_timestamp ON messages(timestamp);
CREATE INDEX idx_sessions_updated ON sessions(updated_at DESC);
CREATE INDEX idx_sessions_type ON sessions(session_type);

INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, created_at, updated_at, extension_data,
    total_tokens, input_tokens, output_tokens, accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens)
VALUES ('20251205_1', 'Billing', FALSE, 'user', '/tmp/transcripts', '2025-12-05 10:00:00', '2025-12-05 10:00:09', '{}',
    3400, 3300, 100, 7190, 6900, 290);
INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json) VALUES
('20251205_1', 'user', '[{"type":"text","text":"the new column is tenant_id"}]', 1764928800, '{"userVisible":true,"agentVisible":true}'),
('20251205_1', 'assistant', '[{"type":"thinking","thinking":"hidden thought","signature":""},{"type":"text","text":"about the split mesh"},{"type":"toolRequest","id":"a","toolCall":{"status":"success","value":{"name":"shell","arguments":{"command":"git branch"}}}},{"type":"toolRequest","id":"b","toolCall":{"status":"success","value":{"name":"read","arguments":{"path":"notes.md"}}}}]', 1764928803, '{"userVisible":true,"agentVisible":true}'),
('20251205_1', 'user', '[{"type":"toolResponse","id":"a","toolResult":{"status":"success","value":{"content":[{"type":"text","text":"split-mesh-branch"}]}}},{"type":"toolResponse","id":"b","toolResult":{"status":"error","error":"Tool ''read'' not found"}}]', 1764928804, '{"userVisible":true,"agentVisible":true}'),
('20251205_1', 'user', '[{"type":"text","text":"[goose''s record of an earlier tool call] shell ls split-tensor"}]', 1764928805, '{"userVisible":false,"agentVisible":true}'),
('20251205_1', 'assistant', '[{"type":"text","text":"the split mesh runs on two Macs"}]', 1764928809, '{"userVisible":true,"agentVisible":true}');
