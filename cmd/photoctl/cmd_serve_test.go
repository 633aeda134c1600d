package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/app"
)

func TestServeRunsWithTheEffectiveConfigAndLogsToStderr(t *testing.T) {
	isolate(t)
	t.Setenv("PHOTOCTL_LOG_LEVEL", "debug")
	var got app.Config
	f := stubFactory(t)
	f.server.RunServer = func(_ context.Context, cfg app.Config, log *slog.Logger) error {
		got = cfg
		log.Debug("listening", "addr", cfg.Listen)
		return nil
	}
	dir := t.TempDir()
	r := runCLI(t, f, "", "serve", "--listen", "127.0.0.1:0", "--data-dir", dir,
		"--log-format", "json", "--max-upload-bytes", "1024")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Empty(t, r.stdout, "serve writes nothing to stdout")

	require.Equal(t, "127.0.0.1:0", got.Listen)
	require.Equal(t, dir, got.DataDir)
	require.Equal(t, int64(1024), got.Upload.MaxBytes)
	require.Equal(t, app.LogConfig{Level: "debug", Format: "json"}, got.Log)

	var line map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(r.stderr)), &line), r.stderr)
	require.Equal(t, "listening", line["msg"])
}

func TestServeStopsWhenItsContextEnds(t *testing.T) {
	isolate(t)
	f := stubFactory(t)
	f.server.RunServer = func(ctx context.Context, _ app.Config, _ *slog.Logger) error {
		<-ctx.Done()
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r := runCLIContext(ctx, t, f, "", "serve")
	require.Equal(t, exitOK, r.code, r.stderr)
}

func TestServeFailureExits1(t *testing.T) {
	isolate(t)
	f := stubFactory(t)
	f.server.RunServer = func(context.Context, app.Config, *slog.Logger) error {
		return errors.New("listen tcp 127.0.0.1:2283: address already in use")
	}
	r := runCLI(t, f, "", "serve")
	require.Equal(t, exitFailure, r.code)
	require.Equal(t, "photoctl: serve: listen tcp 127.0.0.1:2283: address already in use\n", r.stderr)
}

func TestServeInvalidConfigNeverStartsTheServer(t *testing.T) {
	isolate(t)
	r := runCLI(t, nil, "", "serve", "--log-format", "xml")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, `log.format "xml"`)
}
