package people

import (
	"context"
	"fmt"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// hintUnverified tells, on stderr, that an empty people list hides
// machine clusters with too few faces to be listed, when there are some:
// a new library shows nobody until a person has been seen a few times.
func hintUnverified(ctx context.Context, conn *cmdutil.APIConn, q client.PersonQuery, io *cmdutil.Streams) error {
	q.IncludeUnverified = true
	for _, err := range conn.People(ctx, q) {
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(io.Err, "No one has enough faces yet to be listed; "+
			"--include-unverified lists the machine's smaller clusters too.")
		return err
	}
	return nil
}
