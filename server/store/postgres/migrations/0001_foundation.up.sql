-- Accounts, libraries and their members, credentials, invitations, the
-- event feed, settings: the schema of SQLite's 0001 and 0009 in one step.
-- Times are BIGINT microseconds since the Unix epoch, UTC (as in SQLite).
-- Ids and keys use the "C" collation: byte order, the order SQLite pages in,
-- whatever locale the cluster was created with.

CREATE TABLE settings (
    key   text COLLATE "C" PRIMARY KEY,
    value bytea NOT NULL
);

CREATE TABLE users (
    id            text COLLATE "C" PRIMARY KEY,
    email         text NOT NULL,
    email_key     text COLLATE "C" NOT NULL UNIQUE,
    first_name    text NOT NULL DEFAULT '',
    last_name     text NOT NULL DEFAULT '',
    password_hash text NOT NULL DEFAULT '',
    is_active     boolean NOT NULL DEFAULT true,
    is_superuser  boolean NOT NULL DEFAULT false,
    is_verified   boolean NOT NULL DEFAULT false,
    quota_bytes   bigint,
    immich_library_id  text COLLATE "C",
    default_library_id text COLLATE "C",
    created_at    bigint NOT NULL,
    updated_at    bigint NOT NULL
);

CREATE TABLE libraries (
    id         text COLLATE "C" PRIMARY KEY,
    name       text NOT NULL,
    name_key   text COLLATE "C" NOT NULL,
    owner_id   text COLLATE "C" NOT NULL REFERENCES users(id),
    trashed_at bigint,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);
-- A user's own library names are unique (named creates reuse them).
CREATE UNIQUE INDEX libraries_owner_name ON libraries(owner_id, name_key);

-- Current members only. updated_at: when the role last changed (NULL:
-- never, read as created_at); invitation_id: the invitation that admitted
-- the member (NULL for the owner).
CREATE TABLE library_members (
    library_id    text COLLATE "C" NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    user_id       text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role          text NOT NULL CHECK (role IN ('owner', 'collaborator', 'viewer')),
    created_at    bigint NOT NULL,
    updated_at    bigint,
    invitation_id text COLLATE "C",
    PRIMARY KEY (library_id, user_id)
);
CREATE INDEX library_members_user ON library_members(user_id, library_id);
-- A library's members, most recently joined first.
CREATE INDEX library_members_joined ON library_members(library_id, created_at, user_id);

-- name_fold is the name in Go's lower case (strings.ToLower), for the
-- case-insensitive substring filter.
CREATE TABLE api_keys (
    id           text COLLATE "C" PRIMARY KEY,
    user_id      text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name         text COLLATE "C" NOT NULL,
    name_fold    text NOT NULL,
    secret_hash  bytea NOT NULL UNIQUE,
    actions      jsonb NOT NULL,  -- array of action names
    library_ids  jsonb,           -- array of library ids, NULL = every reachable library
    last_used_at bigint,
    created_at   bigint NOT NULL,
    updated_at   bigint NOT NULL
);
CREATE INDEX api_keys_user ON api_keys(user_id, id);
CREATE INDEX api_keys_user_created ON api_keys(user_id, created_at, id);

CREATE TABLE sessions (
    id         text COLLATE "C" PRIMARY KEY,
    user_id    text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    revoked_at bigint
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE refresh_tokens (
    id         text COLLATE "C" PRIMARY KEY,
    session_id text COLLATE "C" NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    user_id    text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash bytea NOT NULL UNIQUE,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    rotated_at bigint
);
CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id);
CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);

-- The change feed. seq is the commit order (appends serialise on an
-- advisory lock, see events.go), id the public id.
CREATE TABLE events (
    seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id          text COLLATE "C" NOT NULL UNIQUE,
    type        text NOT NULL,
    library_id  text COLLATE "C" NOT NULL,
    resource_id text COLLATE "C" NOT NULL,
    data        text NOT NULL,
    created_at  bigint NOT NULL
);
CREATE INDEX events_library ON events(library_id, seq);

CREATE TABLE invitations (
    id          text COLLATE "C" PRIMARY KEY,
    library_id  text COLLATE "C" NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    created_by  text COLLATE "C" NOT NULL REFERENCES users(id),
    token_hash  bytea NOT NULL UNIQUE,
    role        text NOT NULL CHECK (role IN ('collaborator', 'viewer')),
    expires_at  bigint NOT NULL,
    max_joiners integer NOT NULL CHECK (max_joiners >= 1),
    disabled_at bigint,
    created_at  bigint NOT NULL,
    updated_at  bigint NOT NULL
);
CREATE INDEX invitations_library ON invitations(library_id, id);

-- Each account that redeemed an invitation, once (joiner_count counts
-- these rows, departed members included).
CREATE TABLE invitation_joins (
    invitation_id text COLLATE "C" NOT NULL REFERENCES invitations(id) ON DELETE CASCADE,
    user_id       text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at    bigint NOT NULL,
    PRIMARY KEY (invitation_id, user_id)
);

-- The latest time the owner removed a user from a library: invitations
-- issued before it no longer admit that user.
CREATE TABLE library_removals (
    library_id text COLLATE "C" NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    user_id    text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    removed_at bigint NOT NULL,
    PRIMARY KEY (library_id, user_id)
);
