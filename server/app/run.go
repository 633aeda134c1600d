package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"sync"
	"time"

	"github.com/photoctl/photoctl/ingest/variant"
	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/events"
	"github.com/photoctl/photoctl/server/httpapi"
	"github.com/photoctl/photoctl/server/httpapi/mcpapi"
	"github.com/photoctl/photoctl/server/immich"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/oidc"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/ratelimit"
	"github.com/photoctl/photoctl/server/search"
	"github.com/photoctl/photoctl/server/stacks"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
	"github.com/photoctl/photoctl/server/users"
)

// Option adjusts how a server is built (tests use it for the clock).
type Option func(*options)

type options struct {
	now     func() time.Time
	version string
}

// WithClock replaces the wall clock.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithVersion is the version the server reports (GET /api/health/ping);
// the binary's, set at build time.
func WithVersion(v string) Option { return func(o *options) { o.version = v } }

// Server is a started photoctl server.
type Server struct {
	cfg      Config
	log      *slog.Logger
	store    store.Store
	http     *httpapi.Server
	svc      *services
	listener net.Listener
	served   chan error
	immich   *immichListener // immich.go; nil without immich.listen

	stopPurge    func()
	tasks        *taskRunner
	lock         *dataLock
	shutdownOnce sync.Once
	shutdownErr  error
}

// services are the use cases built over one store.
type services struct {
	auth   *auth.Service
	libs   *libraries.Service
	users  *users.Service
	evs    *events.Service
	assets *assets.Service
	tasks  *tasks.Service
	people *people.Service
	albums *albums.Service
	stacks *stacks.Service // also what the burst detector calls (CreateAuto, UpdateAuto)
	search *search.Service
	faces  *searchFaces // search.go; closed at shutdown
	blobs  *blob.Store  // shared with the task pipeline; closed at shutdown
	immich *immich.Service
	oidc   *oidc.Service
	oauth  *auth.OAuthServer // third-party OAuth authorization server
}

// OpenStore is in config_database.go, with the choice of store.

func newServices(ctx context.Context, cfg Config, st store.Store, log *slog.Logger, now func() time.Time) (*services, error) {
	a, err := auth.NewService(ctx, st, auth.Config{AccessTTL: cfg.Auth.AccessTTL, RefreshTTL: cfg.Auth.RefreshTTL}, now)
	if err != nil {
		return nil, err
	}
	blobs, err := OpenBlobs(cfg)
	if err != nil {
		return nil, err
	}
	warnLocalBlobs(cfg, log)
	libs := libraries.NewService(st, now)
	faces := newSearchFaces(cfg.ML, log)
	as := assets.NewService(st, blobs, libs, assets.Config{MaxUploadBytes: cfg.Upload.MaxBytes,
		TrashRetention: cfg.Trash.Retention}, now)
	us, al := users.NewService(st, libs, now, cfg.Auth.PasswordCost, users.WithLibraryPurger(as)), albums.NewService(st, libs, now)
	return &services{auth: a, libs: libs, users: us, evs: events.NewService(st, libs), immich: immich.NewService(st, libs, us, al, now),
		assets: as, tasks: tasks.NewService(st, libs),
		people: people.NewService(st, libs, as, variant.CropFace, now),
		albums: al, stacks: stacks.NewService(st, libs, now),
		search: search.NewService(st, libs, faces, search.Config{SamePerson: cfg.People.Threshold}), faces: faces, blobs: blobs,
		oidc:  oidc.NewService(st, a, cfg.OIDC.service(), now),
		oauth: auth.NewOAuthServer(a, cfg.OAuth.server(cfg.Auth))}, nil
}

// Start opens the store, builds the services and starts serving on
// cfg.Listen (port 0 picks a free port; see Addr).
func Start(ctx context.Context, cfg Config, log *slog.Logger, opts ...Option) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("invalid configuration: %w", err)
	}
	o := options{now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	st, err := OpenStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	sig := tasks.NewSignal() // uploads wake this process's task runner
	svc, err := newServices(ctx, cfg, tasks.NotifyOnEnqueue(st, sig), log, o.now)
	if err != nil {
		st.Close()
		return nil, err
	}
	var lim httpapi.Limiters
	if rl := cfg.RateLimit; rl.Enabled {
		lim = httpapi.Limiters{
			PerUser:    ratelimit.New(ratelimit.Config{Rate: rl.Rate, Burst: rl.Burst}, o.now),
			PerAddress: ratelimit.New(ratelimit.Config{Rate: rl.LoginRate, Burst: rl.LoginBurst}, o.now),
			UploadCost: rl.UploadCost, SearchCost: rl.SearchCost, MaxWait: rl.MaxWait,
			Gate:    ratelimit.NewGate(userConcurrency(rl.UserConcurrency)),
			Uploads: ratelimit.NewBoundedGate(rl.UploadConcurrency, rl.UploadQueue),
		}
	}
	mcpDeps := mcpapi.Deps{Assets: svc.assets, Albums: svc.albums, People: svc.people, Libraries: svc.libs,
		Search: svc.search, Costs: cfg.MCP.Costs}
	if cfg.RateLimit.Enabled {
		mcpDeps.Limiter = ratelimit.New(ratelimit.Config{Rate: cfg.MCP.Rate, Burst: cfg.MCP.Burst}, o.now)
	}
	h := httpapi.New(httpapi.Deps{Auth: svc.auth, Libraries: svc.libs, Users: svc.users, Events: svc.evs, Assets: svc.assets, Tasks: svc.tasks, Limiters: lim,
		People: svc.people, OAuth: svc.oauth,
		Albums: svc.albums, Stacks: svc.stacks, Search: svc.search,
		OIDC: svc.oidc, MCP: mcpapi.New(mcpDeps), Mounts: []func(*httpapi.Server){mountImmich(svc)},
		Log: log, MaxBodyBytes: cfg.Upload.MaxBytes + 1<<20, CompressJSON: cfg.Compression, Now: o.now,
		Version: o.version})
	lock, alone, unclean, err := lockDataDir(cfg.DataDir)
	if err != nil {
		st.Close()
		return nil, err
	}
	if err := svc.assets.Recover(ctx, log, alone, unclean); err != nil {
		lock.Close()
		st.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		lock.Close()
		st.Close()
		return nil, fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	s := &Server{cfg: cfg, log: log, store: st, http: h, svc: svc, lock: lock, listener: ln, served: make(chan error, 1)}
	if s.tasks, err = startTasks(ctx, cfg, st, svc.blobs, cfg.Workers.Concurrency, sig, alone, log, o.now); err != nil {
		ln.Close()
		lock.Close()
		st.Close()
		return nil, err
	}
	if s.immich, err = startImmich(cfg.Immich, h, svc, log); err != nil {
		_ = s.tasks.stop()
		ln.Close()
		lock.Close()
		st.Close()
		return nil, err
	}
	go func() { s.served <- h.App().Listener(ln) }()
	s.stopPurge = svc.assets.RunPurge(log, time.Hour)
	log.Info("photoctl serving", "url", "http://"+ln.Addr().String(), "data_dir", cfg.DataDir,
		"blobs", cfg.Storage.location(cfg.DataDir))
	return s, nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.listener.Addr().String() }

// Shutdown stops accepting connections, waits for in-flight requests to
// finish (at most until ctx ends), then closes the store. Calls after the
// first return the first call's result.
func (s *Server) Shutdown(ctx context.Context) error {
	s.shutdownOnce.Do(func() {
		s.stopPurge()
		terr := s.tasks.stop() // before the store closes; handlers give their tasks back
		err := errors.Join(terr, s.http.App().ShutdownWithContext(ctx), s.immich.stop(ctx))
		// fasthttp shuts down only the listeners it already serves: a
		// Shutdown that comes before the serving goroutine got there would
		// leave it serving forever. Closing the listener ends it either way.
		_ = s.listener.Close()
		if serr := <-s.served; serr != nil && !errors.Is(serr, net.ErrClosed) {
			err = errors.Join(err, serr)
		}
		s.shutdownErr = errors.Join(err, s.svc.faces.Close(), s.svc.blobs.Close(), s.store.Close(), s.lock.Close())
	})
	return s.shutdownErr
}

// Run starts the server described by cfg and blocks until ctx is cancelled,
// then drains in-flight requests for at most cfg.ShutdownTimeout.
func Run(ctx context.Context, cfg Config, log *slog.Logger, opts ...Option) error {
	s, err := Start(ctx, cfg, log, opts...)
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
	case err := <-s.served:
		s.served <- err
		log.Error("listener stopped", "err", err)
	}
	log.Info("shutting down; draining in-flight requests", "timeout", cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := s.Shutdown(sctx); err != nil {
		return fmt.Errorf("shut down: %w", err)
	}
	log.Info("stopped")
	return nil
}

// CreateUser creates an account with its first library on a running
// server's store.
func (s *Server) CreateUser(ctx context.Context, u NewUser) (*catalog.User, error) {
	return s.svc.users.Create(ctx, u)
}

// SetUserActive activates or deactivates an account.
func (s *Server) SetUserActive(ctx context.Context, id string, active bool) error {
	return s.svc.users.SetActive(ctx, id, active)
}

// SetUserQuota sets a user's storage allowance (nil = unlimited).
func (s *Server) SetUserQuota(ctx context.Context, id string, quota *int64) error {
	return s.svc.users.SetQuota(ctx, id, quota)
}

// PurgeTrash runs the trash-retention purge now (it also runs hourly).
func (s *Server) PurgeTrash(ctx context.Context) (int, error) { return s.svc.assets.PurgeTrash(ctx) }

// NewUser is what `photoctl admin create-user` supplies.
type NewUser = users.NewUser

// CreateUser opens the store of cfg directly (the server may or may not be
// running: SQLite serialises the writers) and creates a user with their
// first library.
func CreateUser(ctx context.Context, cfg Config, u NewUser) (*catalog.User, error) {
	st, err := OpenStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	svc, err := newServices(ctx, cfg, st, slog.New(slog.DiscardHandler), time.Now)
	if err != nil {
		return nil, err
	}
	return svc.users.Create(ctx, u)
}

// userConcurrency is rate_limit.user_concurrency, 0 meaning half the cores
// Go runs on (at least 1): one user's burst keeps the other half free.
// On two cores, one at a time: the load test (scripts/load) measured the
// neighbour of a flooding user at p99 17–19 ms with 1, 35–38 ms with 2 and
// 17–166 ms (max 0.5 s) with no bound.
func userConcurrency(n int) int {
	if n > 0 {
		return n
	}
	return max(1, runtime.GOMAXPROCS(0)/2)
}
