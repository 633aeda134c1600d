package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/photoctl/photoctl/server/store"
)

// taskChannel is the channel the tasks table's trigger notifies when a
// statement inserts tasks (migration 0005_tasks).
const taskChannel = "photoctl_tasks"

var _ store.TaskListener = (*DB)(nil)

// ListenTasks listens on its own connection, outside the pool, so that a
// connection in LISTEN mode is never handed to a query and the pool keeps
// its size. It wakes once listening, since tasks enqueued before then sent
// their notifications to nobody.
func (db *DB) ListenTasks(ctx context.Context, wake func()) error {
	c, err := pgx.ConnectConfig(ctx, db.pool.Config().ConnConfig.Copy())
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("connect to listen for tasks: %w", translate(err))
	}
	defer c.Close(context.WithoutCancel(ctx))
	if _, err := c.Exec(ctx, "LISTEN "+taskChannel); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("listen for tasks: %w", translate(err))
	}
	wake()
	for {
		if _, err := c.WaitForNotification(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("wait for tasks: %w", translate(err))
		}
		wake()
	}
}
