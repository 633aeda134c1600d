-- The durable task queue (server/tasks): SQLite's 0005_tasks, same table,
-- columns and index names. A task is one step of background work on an
-- asset (or, with asset_id NULL, on a whole library): queued → running →
-- succeeded | failed, back to queued for a retry or after the worker
-- running it stopped.
--
-- subject is the asset id, or the library id for library-wide tasks: at
-- most one task of a kind is queued per subject (a second enqueue is a
-- no-op), and a queued task is not claimed while one of its kind runs for
-- the same subject. A running task is leased: lease_owner names the claim,
-- lease_until is when it counts as abandoned unless its worker extends it.
-- max_attempts is written at claim time by the runner (0 = never claimed).
-- Several worker processes claim with SELECT ... FOR UPDATE SKIP LOCKED
-- (server/store/postgres/tasks.go), so no task is handed out twice.
-- Deleting an asset deletes its tasks (cascade): their work is moot.
CREATE TABLE tasks (
    id           text COLLATE "C" PRIMARY KEY,
    kind         text COLLATE "C" NOT NULL,
    state        text NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
    asset_id     text COLLATE "C" REFERENCES assets(id) ON DELETE CASCADE,
    library_id   text COLLATE "C" NOT NULL REFERENCES libraries(id),
    subject      text COLLATE "C" NOT NULL,
    attempts     integer NOT NULL DEFAULT 0,
    max_attempts integer NOT NULL DEFAULT 0,
    error        text,
    progress     double precision,
    run_after    bigint NOT NULL,
    lease_owner  text,
    lease_until  bigint,
    created_at   bigint NOT NULL,
    started_at   bigint,
    finished_at  bigint
);
-- One queued task per subject and kind; settles concurrent enqueues.
CREATE UNIQUE INDEX tasks_pending ON tasks(subject, kind) WHERE state = 'queued';
-- Running tasks per subject and kind (claim skips a subject's busy kind).
CREATE INDEX tasks_active ON tasks(subject, kind) WHERE state = 'running';
-- Claiming: the earliest due queued task of a kind.
CREATE INDEX tasks_due ON tasks(kind, run_after, id) WHERE state = 'queued';
-- Finding abandoned leases. lease_until is set exactly while a task runs;
-- the predicate differs from tasks_active's on purpose: with the same one
-- the planner may answer claim's busy-subject probe by walking this index.
CREATE INDEX tasks_leases ON tasks(lease_until) WHERE lease_until IS NOT NULL;
-- The API list, newest first, optionally by state, and by asset (which
-- also serves the cascade from assets).
CREATE INDEX tasks_library ON tasks(library_id, id);
CREATE INDEX tasks_library_state ON tasks(library_id, state, id);
CREATE INDEX tasks_asset ON tasks(asset_id, id);
-- A claim walks tasks_due from its head, where every claim leaves the
-- entry of the row version it changed until VACUUM removes it; finished
-- tasks stay, so the table grows and the default 20% of dead rows before a
-- vacuum would mean millions of entries to step over. Vacuum after a fixed
-- number of changes instead.
ALTER TABLE tasks SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
    autovacuum_analyze_scale_factor = 0.02);

-- (Until 2026-11-28 the trigger below was migration 0012_tasks_notify.)
-- Workers in other processes and on other hosts learn of new tasks at once
-- instead of at their next poll: every statement that inserts into tasks
-- (an upload's first task, a finished task's successors) notifies the
-- channel photoctl_tasks when its transaction commits (listen.go,
-- ListenTasks). PostgreSQL folds a transaction's identical notifications
-- into one, and a rolled-back transaction sends none.
CREATE FUNCTION tasks_notify() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM pg_notify('photoctl_tasks', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER tasks_enqueued AFTER INSERT ON tasks
    FOR EACH STATEMENT EXECUTE FUNCTION tasks_notify();
