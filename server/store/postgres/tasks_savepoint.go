package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// taskSavepoint runs fn so that a statement failing in it (a unique
// violation the caller handles) does not abort the caller's transaction:
// inside a transaction, fn runs in a savepoint (pgx's nested transaction)
// that is rolled back when fn fails; on the pool, in a transaction of its
// own. SQLite needs no such thing: a failed statement there leaves the
// transaction usable.
func taskSavepoint(ctx context.Context, c conn, fn func(conn) error) error {
	b, ok := c.q.(interface {
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
