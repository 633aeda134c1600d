// Package postgres implements the store interfaces on PostgreSQL through
// jackc/pgx/v5 and its pool. It is the only package that imports pgx.
//
// The schema mirrors the SQLite one: times are BIGINT microseconds since
// the Unix epoch (UTC), ids and keys are text in the "C" collation, so rows,
// cursors and orders are the same in both dialects and a library moves
// between them without conversion.
//
// Write transactions take transaction-scoped advisory locks first, in
// every process on the database (locks.go), then run at READ COMMITTED, so
// every statement sees what the writers before it committed. InTx holds
// the writer lock exclusively: it runs alone, as on SQLite's single writer.
// InLibraryTx holds the writer lock shared and its library's lock
// exclusively: transactions of one library run one at a time, those of
// different libraries at once (several servers and workers on one
// database), and an InTx waits for all of them. The services rely on
// check-then-write inside one transaction (quota counts, invitation joiner
// limits, name uniqueness before insert); the ones confined to a library
// use InLibraryTx, the rest InTx. The maintained aggregates (day counts,
// geo cells, album and person counts, clustering state) are hot rows that
// concurrent SERIALIZABLE writers kept aborting each other on (four
// parallel uploads of one user exhausted the retries); each belongs to one
// library, so its library's lock orders their writers. The one row that
// libraries share, an owner's storage use, is changed by an upsert that
// locks it before the quota check reads it (the asset service's charge).
// Write transactions are short: decoding, hashing and rendering happen
// outside them. Event ids follow commit order within each library's feed
// (events.go). A deadlock
// or serialization failure (from a reader or a tool outside photoctl)
// still runs the transaction again (fn must therefore have no effect
// outside the transaction, which is the store's rule already). Reads run
// on the pool outside any transaction.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/photoctl/photoctl/server/store"
)

// maxAttempts bounds how often InTx runs a transaction that PostgreSQL
// keeps aborting as a serialization failure or deadlock.
const maxAttempts = 10

// DB is a PostgreSQL store.
type DB struct {
	pool *pgxpool.Pool
}

var _ store.ParallelLibraryWriter = (*DB)(nil)

// Open connects to the database at url (postgres://...), and applies
// pending migrations; several processes may open a new database at once.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse database url: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	return &DB{pool: pool}, nil
}

// Read returns repositories over the pool.
func (db *DB) Read() store.Repos { return newRepos(conn{db.pool}) }

// InTx runs fn in a write transaction alone (writerLock held exclusively),
// again when PostgreSQL aborts it as a serialization failure or deadlock.
func (db *DB) InTx(ctx context.Context, fn func(store.Repos) error) error {
	return db.retry(ctx, func() error { return db.tryTx(ctx, lockWriters, fn) })
}

// InLibraryTx runs fn in a write transaction beside those of other
// libraries (writerLock shared) and after those of library libraryID
// (its library lock), again as InTx does. An empty libraryID is InTx.
func (db *DB) InLibraryTx(ctx context.Context, libraryID string, fn func(store.Repos) error) error {
	if libraryID == "" {
		return db.InTx(ctx, fn)
	}
	lock := func(ctx context.Context, tx pgx.Tx) error { return lockLibrary(ctx, tx, libraryID) }
	return db.retry(ctx, func() error { return db.tryTx(ctx, lock, fn) })
}

// ParallelLibraryWrites reports true: InLibraryTx transactions of
// different libraries run at the same time.
func (db *DB) ParallelLibraryWrites() bool { return true }

// retry runs try again while PostgreSQL aborts it as a serialization
// failure or deadlock, at most maxAttempts times.
func (db *DB) retry(ctx context.Context, try func() error) error {
	var err error
	for attempt := range maxAttempts {
		if err = try(); !retryable(err) {
			return err
		}
		// Back off a little, longer each time and by a random amount, so
		// the transaction that won can commit and the losers do not all
		// collide again.
		wait := time.Duration(attempt+1)*2*time.Millisecond + rand.N(time.Duration(attempt+1)*5*time.Millisecond)
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(wait):
		}
	}
	return err
}

// tryTx runs fn once in a transaction that takes its locks first.
func (db *DB) tryTx(ctx context.Context, lock func(context.Context, pgx.Tx) error,
	fn func(store.Repos) error) (err error) {
	tx, err := db.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return fmt.Errorf("begin transaction: %w", translate(err))
	}
	committed := false
	defer func() {
		// Roll back on an error, a panic, or runtime.Goexit (t.FailNow in a
		// test): the connection goes back to the pool clean. The context
		// may be done already; the rollback must still reach the server.
		if !committed {
			_ = tx.Rollback(context.WithoutCancel(ctx))
		}
		if p := recover(); p != nil {
			panic(p)
		}
	}()
	if err = lock(ctx, tx); err != nil {
		return err
	}
	if err = fn(newRepos(conn{tx})); err != nil {
		return err
	}
	if err = tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", translate(err))
	}
	committed = true
	return nil
}

// retryable reports whether err is a serialization failure or a deadlock,
// after which the whole transaction may run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// Close closes the pool.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// Pool returns the connection pool, for tests and tools that need SQL of
// their own (query plans, migrations between stores).
func (db *DB) Pool() *pgxpool.Pool { return db.pool }
