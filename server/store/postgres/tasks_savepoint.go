package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// taskSavepoint is the dialect's Savepoint: inside a transaction, fn runs
// in a savepoint (pgx's nested transaction) that is rolled back when fn
// fails; on the pool, in a transaction of its own. So a statement failing
// in fn (a unique violation the caller handles) does not abort the
// caller's transaction.
func taskSavepoint(ctx context.Context, c sqlstore.Conn, fn func(sqlstore.Conn) error) error {
	pc, ok := c.(conn)
	if !ok {
		return fn(c)
	}
	b, ok := pc.q.(interface {
		Begin(context.Context) (pgx.Tx, error)
	})
	if !ok {
		return fn(c)
	}
	sp, err := b.Begin(ctx)
	if err != nil {
		return translate(err)
	}
	if err := fn(conn{sp}); err != nil {
		_ = sp.Rollback(context.WithoutCancel(ctx))
		return err
	}
	return translate(sp.Commit(ctx))
}
