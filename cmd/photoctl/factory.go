//go:build !client

package main

import (
	"context"
	"log/slog"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/servercmd"
	"github.com/photoctl/photoctl/server/app"
)

// factory holds what commands reach for beyond their flags: the client
// commands' streams and connection (cmdutil.Factory; the streams come from
// the cli.App's Reader, Writer and ErrWriter, so help output and command
// output go to the same place, and tests swap both) and, for the server
// commands, the same with the hooks into server/app (servercmd.Factory).
type factory struct {
	*cmdutil.Factory
	server *servercmd.Factory
}

// newFactory returns the production dependencies.
func newFactory() *factory {
	f := cmdutil.NewFactory()
	return &factory{Factory: f, server: &servercmd.Factory{
		Factory: f,
		RunServer: func(ctx context.Context, cfg app.Config, log *slog.Logger) error {
			return app.Run(ctx, cfg, log, app.WithVersion(cmdutil.Version))
		},
		CreateUser: app.CreateUser,
	}}
}
