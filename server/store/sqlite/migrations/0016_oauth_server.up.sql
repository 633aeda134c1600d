-- OAuth 2 authorization server for third-party apps (issue 10, part B).

-- A third-party application an administrator registered. secret_hash is the
-- SHA-256 of the client secret (NULL for a public client, which must use
-- PKCE and no secret). redirect_uris and scopes are JSON arrays; scopes are
-- the API-key action names the client may ever ask for.
CREATE TABLE oauth_clients (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    secret_hash   BLOB,
    redirect_uris TEXT NOT NULL,
    scopes        TEXT NOT NULL,
    created_by    TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    revoked_at    INTEGER
) STRICT, WITHOUT ROWID;

-- A user's consent to a client: one per authorization, shared by every
-- token the code and its refresh chain produce (the token family). Access
-- tokens name their grant; revoking it (or its client) ends them at once.
CREATE TABLE oauth_grants (
    id         TEXT PRIMARY KEY,
    client_id  TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    scopes     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
) STRICT, WITHOUT ROWID;
CREATE INDEX oauth_grants_client ON oauth_grants(client_id);
CREATE INDEX oauth_grants_user ON oauth_grants(user_id);

-- The protocol's request records: authorization codes ('code'), their PKCE
-- challenges ('pkce') and refresh tokens ('refresh'), keyed by the HMAC
-- signature of the token (the token itself is never stored). data is the
-- serialized request the library needs back; active = 0 marks a used code
-- or a rotated refresh token, kept so a replay is recognised.
CREATE TABLE oauth_requests (
    kind       TEXT NOT NULL,
    signature  TEXT NOT NULL,
    grant_id   TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    data       BLOB NOT NULL,
    active     INTEGER NOT NULL DEFAULT 1,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (kind, signature)
) STRICT, WITHOUT ROWID;
CREATE INDEX oauth_requests_grant ON oauth_requests(grant_id, kind);
