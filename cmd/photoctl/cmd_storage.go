package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// storageJSON is the --json output of `photoctl storage`.
type storageJSON struct {
	QuotaBytes *int64 `json:"quota_bytes"`
	UsedBytes  int64  `json:"used_bytes"`
}

// newStorageCommand returns `photoctl storage`.
func newStorageCommand() *cli.Command {
	return &cli.Command{
		Name:  "storage",
		Usage: "Show your storage use and allowance",
		Description: `Shows the bytes charged to you (the files of every library you own, whoever
uploaded them, versions included) against your allowance.

Example:
   photoctl storage
   photoctl storage --json | jq .used_bytes`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "", func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
			u, err := conn.Storage(c.Context)
			if err != nil {
				return err
			}
			io := cmdutil.NewStreams(c)
			if c.Bool("json") {
				return cmdutil.PrintJSON(io.Out, storageJSON{QuotaBytes: u.QuotaBytes, UsedBytes: u.UsedBytes})
			}
			line := fmt.Sprintf("%s used of %s", cmdutil.HumanBytes(u.UsedBytes), quotaText(u.QuotaBytes))
			if u.QuotaBytes != nil && *u.QuotaBytes > 0 {
				line += fmt.Sprintf(" (%.0f%%)", 100*float64(u.UsedBytes)/float64(*u.QuotaBytes))
			}
			_, err = fmt.Fprintln(io.Out, line)
			return err
		}),
	}
}
