//go:build !client

package main

import (
	"context"
	"log/slog"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
)

// factory holds what commands reach for beyond their flags: the client
// commands' streams and connection (cmdutil.Factory; the streams come from
// the cli.App's Reader, Writer and ErrWriter, so help output and command
// output go to the same place, and tests swap both) and the server hooks.
type factory struct {
	*cmdutil.Factory
	// runServer runs the server until ctx ends; app.Run in production.
	runServer func(ctx context.Context, cfg app.Config, log *slog.Logger) error
	// createUser creates a user directly in the store; app.CreateUser in
	// production.
	createUser func(ctx context.Context, cfg app.Config, u app.NewUser) (*catalog.User, error)
}

// newFactory returns the production dependencies.
func newFactory() *factory {
	return &factory{
		Factory: cmdutil.NewFactory(),
		runServer: func(ctx context.Context, cfg app.Config, log *slog.Logger) error {
			return app.Run(ctx, cfg, log, app.WithVersion(cmdutil.Version))
		},
		createUser: app.CreateUser,
	}
}
