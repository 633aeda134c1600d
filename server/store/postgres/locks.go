package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// writerLock is the advisory lock key every write transaction holds,
// exclusively in InTx and shared in InLibraryTx: any constant, the same in
// every process ("photoctl" in ASCII).
const writerLock int64 = 0x70686f746f63746c

// lockWriters takes the writer lock exclusively: the transaction waits for
// every write transaction in progress and runs alone.
func lockWriters(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", writerLock); err != nil {
		return fmt.Errorf("wait for the writer lock: %w", translate(err))
	}
	return nil
}

// lockLibrary takes the writer lock shared, then the library's lock
// exclusively, always in that order (so two transactions never wait for
// each other's second lock): the transaction waits for an InTx in progress
// and for the library's other transactions, not for other libraries'.
func lockLibrary(ctx context.Context, tx pgx.Tx, libraryID string) error {
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock_shared($1)", writerLock); err != nil {
		return fmt.Errorf("wait for the writer lock: %w", translate(err))
	}
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", sqlstore.LockKey("library", libraryID)); err != nil {
		return fmt.Errorf("wait for the lock of library %s: %w", libraryID, translate(err))
	}
	return nil
}
