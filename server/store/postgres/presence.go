package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/photoctl/photoctl/server/store"
)

// A task runner holds its presence as a shared session advisory lock on
// two int4 keys: presenceSpace and hashtext of the runner's name. The
// writer and library locks (locks.go) take one bigint key, which pg_locks
// tells apart (objsubid 1; 2 for two keys). The lock is shared so that two
// runners whose names hash alike both hold theirs (a dead one among them
// is then found by its lease's end, as without presence).
const presenceSpace = 0x7068 // "ph"

// presencePing is how often a held presence checks its connection.
const presencePing = 5 * time.Second

// orphanLease is the dialect's OrphanLease: no session holds the
// presence of the runner a running task's lease names.
var orphanLease = fmt.Sprintf(`NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory'
	AND l.objsubid = 2 AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
	AND l.classid = %d::oid AND l.objid = hashtext(split_part(tasks.lease_owner, '#', 1))::oid)`, presenceSpace)

var _ store.TaskPresence = (*DB)(nil)

// HoldPresence holds the lock on its own connection, outside the pool (as
// ListenTasks does), so that the pool keeps its size; the lock lasts as
// long as the connection's session, which ends with the process.
func (db *DB) HoldPresence(ctx context.Context, runner string, held func()) error {
	c, err := pgx.ConnectConfig(ctx, db.pool.Config().ConnConfig.Copy())
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("connect to hold the runner's presence: %w", translate(err))
	}
	defer c.Close(context.WithoutCancel(ctx))
	if _, err := c.Exec(ctx, "SELECT pg_advisory_lock_shared($1, hashtext($2))", presenceSpace, runner); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("hold the runner's presence: %w", translate(err))
	}
	held()
	tick := time.NewTicker(presencePing)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			// Released before returning: the session would release it
			// too, but only once the server has seen the connection close.
			_, err := c.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock_shared($1, hashtext($2))",
				presenceSpace, runner)
			return err
		case <-tick.C:
		}
		if err := c.Ping(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("the runner's presence was lost with its connection: %w", translate(err))
		}
	}
}
