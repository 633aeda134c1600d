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
