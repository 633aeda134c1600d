package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"

	"github.com/photoctl/photoctl/server/httpapi"
	"github.com/photoctl/photoctl/server/httpapi/immichapi"
)

// ImmichConfig configures the Immich-compatible layer, which is always
// served under /immich on the main listener.
type ImmichConfig struct {
	// Listen, when set, also serves the layer at the root of a second
	// listener on HOST:PORT, for clients that insist on /api at the root.
	Listen string `koanf:"listen"`
}

// Validate checks the second listener's address.
func (c ImmichConfig) Validate() error {
	if c.Listen == "" {
		return nil
	}
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		return fmt.Errorf("immich.listen %q: want HOST:PORT", c.Listen)
	}
	return nil
}

// immichListener serves the Immich layer at the root of its own listener.
type immichListener struct {
	ln       net.Listener
	served   chan error
	shutdown func(context.Context) error
}

// immichDeps are the services the Immich layer calls.
func immichDeps(svc *services) immichapi.Deps {
	return immichapi.Deps{Auth: svc.auth, Immich: svc.immich, Assets: svc.assets}
}

// mountImmich mounts the Immich layer under /immich on the main app
// (httpapi.Deps.Mounts).
func mountImmich(svc *services) func(*httpapi.Server) {
	return func(h *httpapi.Server) { immichapi.Mount(h, immichDeps(svc)) }
}

// startImmich starts the second listener of cfg, or returns nil when none
// is configured.
func startImmich(cfg ImmichConfig, h *httpapi.Server, svc *services, log *slog.Logger) (*immichListener, error) {
	if cfg.Listen == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen on %s (immich.listen): %w", cfg.Listen, err)
	}
	a := immichapi.App(h, immichDeps(svc))
	l := &immichListener{ln: ln, served: make(chan error, 1), shutdown: a.ShutdownWithContext}
	go func() { l.served <- a.Listener(ln) }()
	log.Info("photoctl serving the Immich-compatible API", "url", "http://"+ln.Addr().String())
	return l, nil
}

// stop stops the listener like the main one (see Server.Shutdown); nil is
// a no-op.
func (l *immichListener) stop(ctx context.Context) error {
	if l == nil {
		return nil
	}
	err := l.shutdown(ctx)
	_ = l.ln.Close()
	if serr := <-l.served; serr != nil && !errors.Is(serr, net.ErrClosed) {
		err = errors.Join(err, serr)
	}
	return err
}

// ImmichAddr is the address of the Immich layer's own listener, or "" when
// there is none (the layer is still under /immich on Addr).
func (s *Server) ImmichAddr() string {
	if s.immich == nil {
		return ""
	}
	return s.immich.ln.Addr().String()
}
