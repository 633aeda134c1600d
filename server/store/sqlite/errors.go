package sqlite

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/mattn/go-sqlite3"

	"github.com/photoctl/photoctl/server/catalog"
)

// translate turns driver errors into catalog error kinds, once, here.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return catalog.ErrNotFound
	}
	var se sqlite3.Error
	if errors.As(err, &se) && se.Code == sqlite3.ErrConstraint &&
		(se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey) {
		return fmt.Errorf("%w: %v", catalog.ErrConflict, se)
	}
	if errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked) {
		// Another process held the database past the busy timeout: the
		// request may succeed later (503), it is not a server fault.
		return fmt.Errorf("%w: the database is busy: %v", catalog.ErrUnavailable, se)
	}
	if errors.As(err, &se) && se.Code == sqlite3.ErrFull {
		// The disk holding the database is full: 507, like a full blob
		// store, not a server fault; the transaction was rolled back.
		return fmt.Errorf("%w: the database disk is full: %v", catalog.ErrInsufficient, se)
	}
	return err
}
