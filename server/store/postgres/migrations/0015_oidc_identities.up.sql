-- Sign-in through an OpenID provider (SQLite's 0015).

-- A provider identity (issuer + subject) linked to one account. An account
-- has at most one subject per issuer: a second subject with the same e-mail
-- is refused, never linked.
CREATE TABLE identities (
    issuer     text COLLATE "C" NOT NULL,
    subject    text COLLATE "C" NOT NULL,
    user_id    text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email      text NOT NULL DEFAULT '',
    created_at bigint NOT NULL,
    PRIMARY KEY (issuer, subject)
);
CREATE UNIQUE INDEX identities_user ON identities(user_id, issuer);

-- A sign-in in progress: what the callback needs to finish the code flow.
-- Any server process sharing the database can finish a sign-in another one
-- started; the callback deletes its row (single use), and expired rows are
-- swept when new ones are added.
CREATE TABLE oidc_states (
    state_hash   bytea PRIMARY KEY,
    verifier     text NOT NULL,
    nonce        text NOT NULL,
    redirect_uri text NOT NULL,
    created_at   bigint NOT NULL,
    expires_at   bigint NOT NULL
);
CREATE INDEX oidc_states_expiry ON oidc_states(expires_at);
