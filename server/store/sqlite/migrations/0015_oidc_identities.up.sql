-- Sign-in through an OpenID provider (issue 10, part A).

-- A provider identity (issuer + subject) linked to one account. An account
-- has at most one subject per issuer: a second subject with the same e-mail
-- is refused, never linked (decisions "Authentication", the 409 case).
CREATE TABLE identities (
    issuer     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email      TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    PRIMARY KEY (issuer, subject)
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX identities_user ON identities(user_id, issuer);

-- A sign-in in progress: what the callback needs to finish the code flow
-- (PKCE verifier, nonce, the redirect URI it must repeat). Rows live in the
-- database so any server process sharing it can finish a sign-in another
-- one started; the callback deletes its row (single use), and expired rows
-- are swept when new ones are added.
CREATE TABLE oidc_states (
    state_hash   BLOB PRIMARY KEY,
    verifier     TEXT NOT NULL,
    nonce        TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX oidc_states_expiry ON oidc_states(expires_at);
