-- Foundation: accounts, libraries, credentials, the event feed, settings.
-- Times are INTEGER microseconds since the Unix epoch, UTC.

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
) STRICT;

CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    email         TEXT NOT NULL,
    email_key     TEXT NOT NULL UNIQUE,
    first_name    TEXT NOT NULL DEFAULT '',
    last_name     TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL DEFAULT '',
    is_active     INTEGER NOT NULL DEFAULT 1,
    is_superuser  INTEGER NOT NULL DEFAULT 0,
    is_verified   INTEGER NOT NULL DEFAULT 0,
    quota_bytes   INTEGER,
    immich_library_id  TEXT,
    default_library_id TEXT,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
) STRICT;

CREATE TABLE libraries (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    owner_id   TEXT NOT NULL REFERENCES users(id),
    trashed_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;
-- A user's own library names are unique (named creates reuse them).
CREATE UNIQUE INDEX libraries_owner_name ON libraries(owner_id, name_key);

CREATE TABLE library_members (
    library_id TEXT NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('owner', 'collaborator', 'viewer')),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (library_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX library_members_user ON library_members(user_id, library_id);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    secret_hash  BLOB NOT NULL UNIQUE,
    actions      TEXT NOT NULL,  -- JSON array of action names
    library_ids  TEXT,           -- JSON array, NULL = every reachable library
    last_used_at INTEGER,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX api_keys_user ON api_keys(user_id, id);

CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER
) STRICT;

CREATE TABLE refresh_tokens (
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash BLOB NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    rotated_at INTEGER
) STRICT;
CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id);
CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);
CREATE INDEX sessions_user ON sessions(user_id);

-- The change feed. seq is the commit order (one writer), id the public id.
CREATE TABLE events (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT NOT NULL UNIQUE,
    type        TEXT NOT NULL,
    library_id  TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    data        TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX events_library ON events(library_id, seq);
