//go:build !client

// Package servercmd holds the commands that run or administer the server
// itself: serve, worker, admin (create-user, migrate, backup, restore,
// copy-blobs, regeocode, remeasure), config show and dev seed. Each is an
// Options struct, a NewCmdX(f, runF) that parses the command line into it
// and a runX that does the work, so a test checks the parsing with no
// process and no server. They link server/app, SQLite and fiber, so the
// package is built only without the client tag; the client build hands
// these commands to photoctl-server (main's commands_client.go).
package servercmd

import (
	"context"
	"log/slog"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
)

// Factory is what the server commands reach for beyond their flags: the
// streams of cmdutil.Factory and the hooks into server/app that a test of
// the whole command tree swaps for stubs (main builds the production one).
// serve takes RunServer when it is built; create-user and dev seed read
// CreateUser when they run.
type Factory struct {
	*cmdutil.Factory
	// RunServer runs the server until ctx ends; app.Run in production.
	RunServer func(ctx context.Context, cfg app.Config, log *slog.Logger) error
	// CreateUser creates a user directly in the store; app.CreateUser in
	// production.
	CreateUser func(ctx context.Context, cfg app.Config, u app.NewUser) (*catalog.User, error)
}
