-- The durable task queue (server/tasks). A task is one step of background
-- work on an asset (or, with asset_id NULL, on a whole library): queued →
-- running → succeeded | failed, back to queued for a retry or after the
-- worker running it stopped.
--
-- subject is the asset id, or the library id for library-wide tasks: at
-- most one task of a kind is queued per subject (a second enqueue is a
-- no-op), and a queued task is not claimed while one of its kind runs for
-- the same subject. A running task is leased: lease_owner names the claim,
-- lease_until is when it counts as abandoned unless its worker extends it.
-- max_attempts is written at claim time by the runner (0 = never claimed).
-- Deleting an asset deletes its tasks (cascade): their work is moot.
CREATE TABLE tasks (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
    asset_id     TEXT REFERENCES assets(id) ON DELETE CASCADE,
    library_id   TEXT NOT NULL REFERENCES libraries(id),
    subject      TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 0,
    error        TEXT,
    progress     REAL,
    run_after    INTEGER NOT NULL,
    lease_owner  TEXT,
    lease_until  INTEGER,
    created_at   INTEGER NOT NULL,
    started_at   INTEGER,
    finished_at  INTEGER
) STRICT;
-- One queued task per subject and kind; settles concurrent enqueues.
CREATE UNIQUE INDEX tasks_pending ON tasks(subject, kind) WHERE state = 'queued';
-- Running tasks per subject and kind (claim skips a subject's busy kind).
CREATE INDEX tasks_active ON tasks(subject, kind) WHERE state = 'running';
-- Claiming: the earliest due queued task of a kind.
CREATE INDEX tasks_due ON tasks(kind, run_after, id) WHERE state = 'queued';
-- Finding abandoned leases.
CREATE INDEX tasks_leases ON tasks(lease_until) WHERE state = 'running';
-- The API list, newest first, optionally by state, and by asset (which
-- also serves the cascade from assets).
CREATE INDEX tasks_library ON tasks(library_id, id);
CREATE INDEX tasks_library_state ON tasks(library_id, state, id);
CREATE INDEX tasks_asset ON tasks(asset_id, id);
