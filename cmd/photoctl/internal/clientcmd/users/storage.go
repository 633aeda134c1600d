package users

import (
	"context"
	"fmt"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// StorageJSON is the --json output of `photoctl storage`.
type StorageJSON struct {
	QuotaBytes *int64 `json:"quota_bytes"`
	UsedBytes  int64  `json:"used_bytes"`
}

// StorageOptions are what `photoctl storage` was asked for.
type StorageOptions struct{ cmdutil.ClientOptions }

// NewCmdStorage returns `photoctl storage`; runF, when not nil, gets the
// parsed options instead of runStorage (tests).
var NewCmdStorage = cmdutil.Constructor(cmdutil.Command[StorageOptions]{
	Name:  "storage",
	Usage: "Show your storage use and allowance",
	Description: `Shows the bytes charged to you (the files of every library you own, whoever
uploaded them, versions included) against your allowance.

Example:
   photoctl storage
   photoctl storage --json | jq .used_bytes`,
	JSON: true,
	Run:  runStorage,
})

func runStorage(ctx context.Context, conn *cmdutil.APIConn, opts *StorageOptions) error {
	u, err := conn.Storage(ctx)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, StorageJSON{QuotaBytes: u.QuotaBytes, UsedBytes: u.UsedBytes})
	}
	line := fmt.Sprintf("%s used of %s", cmdutil.HumanBytes(u.UsedBytes), quotaText(u.QuotaBytes))
	if u.QuotaBytes != nil && *u.QuotaBytes > 0 {
		line += fmt.Sprintf(" (%.0f%%)", 100*float64(u.UsedBytes)/float64(*u.QuotaBytes))
	}
	_, err = fmt.Fprintln(opts.IO.Out, line)
	return err
}
