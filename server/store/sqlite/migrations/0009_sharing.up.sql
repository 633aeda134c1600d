-- Sharing: invitations, who redeemed them, member details, removals.
-- library_members keeps current members only, so every query that joins it
-- (membership checks on each request) sees departures at once.

-- When a member's role last changed (NULL: never, read as created_at) and
-- the invitation that admitted them (NULL for the owner).
ALTER TABLE library_members ADD COLUMN updated_at INTEGER;
ALTER TABLE library_members ADD COLUMN invitation_id TEXT;
-- A library's members, most recently joined first.
CREATE INDEX library_members_joined ON library_members(library_id, created_at, user_id);

CREATE TABLE invitations (
    id          TEXT PRIMARY KEY,
    library_id  TEXT NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    created_by  TEXT NOT NULL REFERENCES users(id),
    token_hash  BLOB NOT NULL UNIQUE,
    role        TEXT NOT NULL CHECK (role IN ('collaborator', 'viewer')),
    expires_at  INTEGER NOT NULL,
    max_joiners INTEGER NOT NULL CHECK (max_joiners >= 1),
    disabled_at INTEGER,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX invitations_library ON invitations(library_id, id);

-- Each account that redeemed an invitation, once (joiner_count counts
-- these rows, departed members included).
CREATE TABLE invitation_joins (
    invitation_id TEXT NOT NULL REFERENCES invitations(id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at    INTEGER NOT NULL,
    PRIMARY KEY (invitation_id, user_id)
) STRICT, WITHOUT ROWID;

-- The latest time the owner removed a user from a library: invitations
-- issued before it no longer admit that user.
CREATE TABLE library_removals (
    library_id TEXT NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    removed_at INTEGER NOT NULL,
    PRIMARY KEY (library_id, user_id)
) STRICT, WITHOUT ROWID;
