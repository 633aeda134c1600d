package postgres

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/photoctl/photoctl/server/catalog"
)

// translate turns driver errors into catalog error kinds, once, here. The
// driver error stays in the chain (InTx looks for serialization failures).
func translate(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) { // pgx.ErrNoRows is sql.ErrNoRows too
		return catalog.ErrNotFound
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err
	}
	switch pe.Code {
	case "23505": // unique_violation (primary keys included)
		return fmt.Errorf("%w: %w", catalog.ErrConflict, err)
	case "22021", "22P05":
		// character_not_in_repertoire, untranslatable_character: text
		// PostgreSQL cannot hold, such as a NUL byte ("invalid byte
		// sequence for encoding UTF8: 0x00"), in a value or a filter. It is
		// the request's fault (422), and nothing stored can match it.
		return catalog.Invalid("text with a NUL character cannot be stored or searched: %s", pe.Message)
	case "40001", "40P01", "55P03", "57014":
		// Serialization failure or deadlock (InTx runs the transaction
		// again), lock timeout, statement timeout: the request may
		// succeed later (503), it is not a server fault.
		return fmt.Errorf("%w: the database is busy: %w", catalog.ErrUnavailable, err)
	}
	if len(pe.Code) == 2+3 && pe.Code[:2] == "08" { // connection exceptions
		return fmt.Errorf("%w: %w", catalog.ErrUnavailable, err)
	}
	return err
}
