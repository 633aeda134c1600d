//go:build !client

package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
)

// queueAction is the Action of an admin command that queues tasks on the
// data directory's store with queue and prints how many: text (a format
// of the count), or with --json {key: count}.
func queueAction(name, key, text string, queue func(context.Context, app.Config) (int, error)) cli.ActionFunc {
	return func(c *cli.Context) error {
		if err := cmdutil.NoArgs(c); err != nil {
			return err
		}
		cfg, err := loadConfig(c)
		if err != nil {
			return err
		}
		n, err := queue(c.Context, cfg)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if c.Bool("json") {
			return cmdutil.PrintJSON(c.App.Writer, map[string]int{key: n})
		}
		_, err = fmt.Fprintf(c.App.Writer, text+"\n", n)
		return err
	}
}
