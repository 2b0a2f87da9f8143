-- Crush's database schema: the Up sections of charmbracelet/crush's migrations
-- (internal/db/migrations/*.sql, commit 37f36e93824e5c4f892e4a817f7f628e2682fe14), in
-- order, then the sessions of the test (see PROVENANCE.md).
-- Sessions
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT,
    title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    prompt_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens>= 0),
    cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0),
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    created_at INTEGER NOT NULL   -- Unix timestamp in milliseconds
);

CREATE TRIGGER IF NOT EXISTS update_sessions_updated_at
AFTER UPDATE ON sessions
BEGIN
UPDATE sessions SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;

-- Files
CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    UNIQUE(path, session_id, version)
);

CREATE INDEX IF NOT EXISTS idx_files_session_id ON files (session_id);
CREATE INDEX IF NOT EXISTS idx_files_path ON files (path);

CREATE TRIGGER IF NOT EXISTS update_files_updated_at
AFTER UPDATE ON files
BEGIN
UPDATE files SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;

-- Messages
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    parts TEXT NOT NULL default '[]',
    model TEXT,
    created_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    finished_at INTEGER,  -- Unix timestamp in milliseconds
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
);

CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages (session_id);

CREATE TRIGGER IF NOT EXISTS update_messages_updated_at
AFTER UPDATE ON messages
BEGIN
UPDATE messages SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;

CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_insert
AFTER INSERT ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count + 1
WHERE id = new.session_id;
END;

CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_delete
AFTER DELETE ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count - 1
WHERE id = old.session_id;
END;


ALTER TABLE sessions ADD COLUMN summary_message_id TEXT;

-- Add indexes on created_at columns for better ORDER BY performance
CREATE INDEX IF NOT EXISTS idx_sessions_created_at ON sessions (created_at);
CREATE INDEX IF NOT EXISTS idx_messages_created_at ON messages (created_at);
CREATE INDEX IF NOT EXISTS idx_files_created_at ON files (created_at);

-- Add provider column to messages table
ALTER TABLE messages ADD COLUMN provider TEXT;

ALTER TABLE messages ADD COLUMN is_summary_message INTEGER DEFAULT 0 NOT NULL;

ALTER TABLE sessions ADD COLUMN todos TEXT;

CREATE TABLE IF NOT EXISTS read_files (
    session_id TEXT NOT NULL CHECK (session_id != ''),
    path TEXT NOT NULL CHECK (path != ''),
    read_at INTEGER NOT NULL,  -- Unix timestamp in seconds when file was last read
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    PRIMARY KEY (path, session_id)
);

CREATE INDEX IF NOT EXISTS idx_read_files_session_id ON read_files (session_id);
CREATE INDEX IF NOT EXISTS idx_read_files_path ON read_files (path);


-- Two sessions, their times in unix seconds as Crush writes them.
INSERT INTO sessions (id, parent_session_id, title, message_count, prompt_tokens, completion_tokens, cost, updated_at, created_at)
VALUES ('2f1d0b8e-6c1a-4a55-9b53-0c7e2d6f4a10', NULL, 'Look at foo', 0, 2400, 180, 0.0123, 1764928809, 1764928800),
       ('8c3e4f21-0d9b-4b7e-a2c6-5e1f7a9b3d42', NULL, 'Search', 0, 900, 20, 0.003, 1764929005, 1764929000);
INSERT INTO messages (id, session_id, role, parts, model, provider, created_at, updated_at, finished_at) VALUES
('m1', '2f1d0b8e-6c1a-4a55-9b53-0c7e2d6f4a10', 'user', '[{"type":"text","data":{"text":"view /foo and list /missing"}}]', NULL, NULL, 1764928800, 1764928800, NULL),
('m2', '2f1d0b8e-6c1a-4a55-9b53-0c7e2d6f4a10', 'assistant', '[{"type":"reasoning","data":{"thinking":"view the file, then ls","signature":"","thought_signature":"","tool_id":"","responses_data":null}},{"type":"text","data":{"text":"Let me look."}},{"type":"tool_call","data":{"id":"call_ok","name":"view","input":"{\"path\":\"/foo\"}","provider_executed":false,"finished":true}},{"type":"tool_call","data":{"id":"test-call","name":"bash","input":"{\"command\":\"ls /missing\"}","provider_executed":false,"finished":true}},{"type":"finish","data":{"reason":"tool_use","time":1764928803}}]', 'claude-sonnet-4-5', 'anthropic', 1764928801, 1764928803, 1764928803),
('m3', '2f1d0b8e-6c1a-4a55-9b53-0c7e2d6f4a10', 'tool', '[{"type":"tool_result","data":{"tool_call_id":"call_ok","name":"view","content":"file contents","data":"","mime_type":"","metadata":"","is_error":false}},{"type":"tool_result","data":{"tool_call_id":"test-call","name":"bash","content":"ls: cannot access ''/missing'': No such file or directory","data":"","mime_type":"","metadata":"","is_error":true}}]', NULL, NULL, 1764928804, 1764928804, NULL),
('m4', '2f1d0b8e-6c1a-4a55-9b53-0c7e2d6f4a10', 'assistant', '[{"type":"text","data":{"text":"/foo holds its file contents; /missing does not exist."}},{"type":"finish","data":{"reason":"end_turn","time":1764928809}}]', 'claude-sonnet-4-5', 'anthropic', 1764928805, 1764928809, 1764928809),
('m5', '8c3e4f21-0d9b-4b7e-a2c6-5e1f7a9b3d42', 'user', '[{"type":"text","data":{"text":"search the repo"}}]', NULL, NULL, 1764929000, 1764929000, NULL),
('m6', '8c3e4f21-0d9b-4b7e-a2c6-5e1f7a9b3d42', 'assistant', '[{"type":"tool_call","data":{"id":"call_orphaned","name":"agent","input":"{\"prompt\":\"search\"}","provider_executed":false,"finished":false}},{"type":"finish","data":{"reason":"canceled","time":1764929005,"message":"User canceled request"}}]', 'claude-sonnet-4-5', 'anthropic', 1764929001, 1764929005, 1764929005);
