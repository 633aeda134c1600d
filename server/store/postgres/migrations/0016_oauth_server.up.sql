-- OAuth 2 authorization server for third-party apps (SQLite's 0016).

-- A third-party application an administrator registered. secret_hash is the
-- SHA-256 of the client secret (NULL for a public client, which must use
-- PKCE and no secret). redirect_uris and scopes are JSON arrays; scopes are
-- the API-key action names the client may ever ask for.
CREATE TABLE oauth_clients (
    id            text COLLATE "C" PRIMARY KEY,
    name          text NOT NULL,
    secret_hash   bytea,
    redirect_uris text NOT NULL,
    scopes        text NOT NULL,
    created_by    text COLLATE "C" NOT NULL,
    created_at    bigint NOT NULL,
    revoked_at    bigint
);

-- A user's consent to a client: one per authorization, shared by every
-- token the code and its refresh chain produce (the token family).
CREATE TABLE oauth_grants (
    id         text COLLATE "C" PRIMARY KEY,
    client_id  text COLLATE "C" NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
    user_id    text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    scopes     text NOT NULL,
    created_at bigint NOT NULL,
    revoked_at bigint
);
CREATE INDEX oauth_grants_client ON oauth_grants(client_id);
CREATE INDEX oauth_grants_user ON oauth_grants(user_id);

-- The protocol's request records: authorization codes ('code'), their PKCE
-- challenges ('pkce') and refresh tokens ('refresh'), keyed by the HMAC
-- signature of the token. active = false marks a used code or a rotated
-- refresh token, kept so a replay is recognised.
CREATE TABLE oauth_requests (
    kind       text COLLATE "C" NOT NULL,
    signature  text COLLATE "C" NOT NULL,
    grant_id   text COLLATE "C" NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    data       bytea NOT NULL,
    active     boolean NOT NULL DEFAULT true,
    expires_at bigint NOT NULL,
    PRIMARY KEY (kind, signature)
);
CREATE INDEX oauth_requests_grant ON oauth_requests(grant_id, kind);
