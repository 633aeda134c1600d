// Package app is the composition root of the server: it turns a Config into
// a store, services, and the HTTP app, and runs them until shutdown.
package app

import (
	"errors"
	"fmt"
	"net"
	"runtime"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/mcp"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/tasks"
)

// maxWorkers bounds workers.concurrency: SQLite has one writer, so more
// handlers than this only queue for it.
const maxWorkers = 256

// Secret is a string that never prints itself.
type Secret string

// String masks the secret.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return "********"
}

// MarshalText masks the secret in any text encoding (config show, logs).
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Config is everything `photoctl serve` needs. The koanf keys are the
// lower-case names in the tags; env PHOTOCTL_A_B maps to key a.b.
type Config struct {
	Listen    string          `koanf:"listen"`
	DataDir   string          `koanf:"data_dir"`
	Database  DatabaseConfig  `koanf:"database"`
	Storage   StorageConfig   `koanf:"storage"` // config_storage.go
	Upload    UploadConfig    `koanf:"upload"`
	Trash     TrashConfig     `koanf:"trash"`
	RateLimit RateLimitConfig `koanf:"rate_limit"`
	Auth      AuthConfig      `koanf:"auth"`
	Log       LogConfig       `koanf:"log"`
	Workers   WorkersConfig   `koanf:"workers"`
	Ingest    IngestConfig    `koanf:"ingest"` // pipeline.go
	People    PeopleConfig    `koanf:"people"`
	ML        MLConfig        `koanf:"ml"` // ml.go
	Immich    ImmichConfig    `koanf:"immich"`
	OIDC      OIDCConfig      `koanf:"oidc"`  // oidc.go
	OAuth     OAuthConfig     `koanf:"oauth"` // oauth.go
	MCP       MCPConfig       `koanf:"mcp"`
	Runtime   RuntimeConfig   `koanf:"runtime"` // runtime.go
	// Compression compresses JSON answers for clients that accept it
	// (httpapi's compressJSON): about 0.5 ms of CPU for a page of 100
	// assets, 90% of its bytes saved; off suits a server only reached over
	// loopback or a fast LAN.
	Compression bool `koanf:"compression"`
	// ShutdownTimeout bounds how long in-flight requests may drain.
	ShutdownTimeout time.Duration `koanf:"shutdown_timeout"`
}

// DatabaseConfig selects the store. An empty URL means SQLite in DataDir.
type DatabaseConfig struct {
	URL Secret `koanf:"url"`
}

// UploadConfig limits uploads.
type UploadConfig struct {
	MaxBytes int64 `koanf:"max_bytes"`
}

// TrashConfig sets how long trashed assets are kept.
type TrashConfig struct {
	Retention time.Duration `koanf:"retention"`
}

// RateLimitConfig configures the per-user weighted token bucket.
type RateLimitConfig struct {
	Enabled bool `koanf:"enabled"`
	// Rate is tokens added per second; Burst the bucket size.
	Rate  float64 `koanf:"rate"`
	Burst int     `koanf:"burst"`
	// Costs of the expensive operations; every other request costs 1.
	// Uploads cost upload_cost (default 0: a bulk import is not a flood of
	// requests) and are bounded by upload_concurrency instead.
	UploadCost float64 `koanf:"upload_cost"`
	SearchCost float64 `koanf:"search_cost"`
	// UploadConcurrency is how many uploads of one user the server takes
	// at once (default 4); up to UploadQueue more (default 64) wait their
	// turn, in order, rather than being refused, and only an upload beyond
	// those is refused with 429. A client's parallel import runs at the
	// disk's pace; a flood holds at most both numbers of connections.
	UploadConcurrency int `koanf:"upload_concurrency"`
	UploadQueue       int `koanf:"upload_queue"`
	// MaxWait is how long a request a little over the rate waits for its
	// tokens (default 1s) rather than being refused: a client that reads
	// a thousand assets at its own pace is slowed to the rate, and only
	// one that would wait longer (a flood) gets 429. The waiting requests
	// of one user are bounded by rate × max_wait.
	MaxWait time.Duration `koanf:"max_wait"`
	// LoginRate and LoginBurst limit sign-in attempts per client address.
	LoginRate  float64 `koanf:"login_rate"`
	LoginBurst int     `koanf:"login_burst"`
	// UserConcurrency bounds the requests of one user handled at once
	// (uploads aside); the user's further requests wait their turn, so a
	// burst that the bucket allows takes a share of the cores, not all of
	// them, beside other users' requests. 0 means half the cores (at
	// least 1).
	UserConcurrency int `koanf:"user_concurrency"`
}

// MCPConfig sets the assistant interface's per-user tool budget, charged
// on top of rate_limit (and off with it): each tool call costs its class's
// weight (searches and image views more than lookups and edits).
type MCPConfig struct {
	Rate  float64   `koanf:"rate"`
	Burst int       `koanf:"burst"`
	Costs mcp.Costs `koanf:"costs"`
}

// AuthConfig sets token lifetimes.
type AuthConfig struct {
	AccessTTL  time.Duration `koanf:"access_ttl"`
	RefreshTTL time.Duration `koanf:"refresh_ttl"`
	// PasswordCost is the argon2id cost of new password hashes; the zero
	// value is auth.DefaultPasswordCost. No file, variable or flag sets
	// it: only code (the test harness) lowers it.
	PasswordCost auth.PasswordCost `koanf:"-"`
}

// WorkersConfig sizes the background task runner of `photoctl serve`.
type WorkersConfig struct {
	// Concurrency is how many tasks run at once; 0 runs none in serve
	// (a `photoctl worker` process does the work).
	Concurrency int `koanf:"concurrency"`
	// PollInterval is how often an idle runner looks for tasks that other
	// processes enqueued or that became due. Uploads to this process wake
	// its runner at once, and on PostgreSQL so do every other process's
	// enqueues (LISTEN/NOTIFY), so polling only backs those up.
	PollInterval time.Duration `koanf:"poll_interval"`
}

// PeopleConfig tunes the clustering of faces into people
// (people.ClusterConfig; defaults people.DefaultClusterConfig).
type PeopleConfig struct {
	// Threshold is the cosine similarity a face needs to a person's
	// centroid to join that person (ml/faces.SamePerson, 0.45).
	Threshold float64 `koanf:"threshold"`
	// MinFaces is how many faces a machine cluster needs to be listed
	// without include_unverified.
	MinFaces int `koanf:"min_faces"`
	// ReclusterInterval spaces a library's re-clusters while faces
	// arrive; ReclusterBurst new faces bring the next one forward.
	ReclusterInterval time.Duration `koanf:"recluster_interval"`
	ReclusterBurst    int           `koanf:"recluster_burst"`
}

func (c PeopleConfig) cluster() people.ClusterConfig {
	return people.ClusterConfig{Threshold: c.Threshold, MinFaces: c.MinFaces,
		ReclusterInterval: c.ReclusterInterval, ReclusterBurst: c.ReclusterBurst}
}

// LogConfig sets the log level and format.
type LogConfig struct {
	Level  string `koanf:"level"`  // debug, info, warn, error
	Format string `koanf:"format"` // text or json
}

// Defaults returns the built-in configuration. dataDir is the platform
// default data directory ($XDG_DATA_HOME/photoctl).
func Defaults(dataDir string) Config {
	return Config{
		Listen:  "127.0.0.1:2283",
		DataDir: dataDir,
		Upload:  UploadConfig{MaxBytes: 10 << 30},
		Trash:   TrashConfig{Retention: 30 * 24 * time.Hour},
		RateLimit: RateLimitConfig{Enabled: true, Rate: 50, Burst: 200, UploadCost: 0, SearchCost: 5,
			UploadConcurrency: 4, UploadQueue: 64, MaxWait: time.Second, LoginRate: 1, LoginBurst: 10},
		Auth:            AuthConfig{AccessTTL: 15 * time.Minute, RefreshTTL: 30 * 24 * time.Hour},
		Log:             LogConfig{Level: "info", Format: "text"},
		Workers:         WorkersConfig{Concurrency: runtime.NumCPU(), PollInterval: tasks.DefaultPollInterval},
		People:          peopleDefaults(),
		ML:              mlDefaults(),
		Runtime:         RuntimeConfig{GCPercent: DefaultGCPercent},
		OIDC:            oidcDefaults(),
		OAuth:           oauthDefaults(),
		MCP:             MCPConfig{Rate: 2, Burst: 60, Costs: mcp.DefaultCosts},
		Compression:     true,
		ShutdownTimeout: 30 * time.Second,
	}
}

func peopleDefaults() PeopleConfig {
	d := people.DefaultClusterConfig()
	return PeopleConfig{Threshold: d.Threshold, MinFaces: d.MinFaces, ReclusterInterval: d.ReclusterInterval,
		ReclusterBurst: d.ReclusterBurst}
}

// Validate reports every problem with the configuration at once.
func (c Config) Validate() error {
	var errs []error
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		errs = append(errs, fmt.Errorf("listen %q: want HOST:PORT", c.Listen))
	}
	if strings.TrimSpace(c.DataDir) == "" {
		errs = append(errs, errors.New("data_dir must be set"))
	}
	if _, err := c.Database.Dialect(); err != nil {
		errs = append(errs, err)
	}
	if err := c.Storage.Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.Upload.MaxBytes <= 0 {
		errs = append(errs, errors.New("upload.max_bytes must be positive"))
	}
	if c.Trash.Retention < 0 {
		errs = append(errs, errors.New("trash.retention must not be negative"))
	}
	if c.RateLimit.Enabled {
		if c.RateLimit.Rate <= 0 || c.RateLimit.Burst <= 0 || c.RateLimit.LoginRate <= 0 || c.RateLimit.LoginBurst <= 0 {
			errs = append(errs, errors.New("rate_limit: rate, burst, login_rate and login_burst must be positive"))
		}
		if c.RateLimit.UserConcurrency < 0 {
			errs = append(errs, errors.New("rate_limit: user_concurrency must be 0 (half the cores) or more"))
		}
		if c.RateLimit.UploadCost < 0 || c.RateLimit.SearchCost < 1 {
			errs = append(errs, errors.New("rate_limit: upload_cost must not be negative and search_cost must be at least 1"))
		}
		if c.RateLimit.MaxWait < 0 || c.RateLimit.MaxWait > time.Minute {
			errs = append(errs, errors.New("rate_limit: max_wait must lie between 0 and 1m"))
		}
		if c.RateLimit.UploadConcurrency < 1 || c.RateLimit.UploadQueue < 0 {
			errs = append(errs, errors.New("rate_limit: upload_concurrency must be at least 1 and upload_queue not negative"))
		}
		if m := c.MCP; m.Rate <= 0 || m.Burst < 1 || m.Costs.Read < 0 || m.Costs.Search < 0 || m.Costs.View < 0 || m.Costs.Write < 0 {
			errs = append(errs, errors.New("mcp: rate and burst must be positive and costs not negative"))
		}
	}
	if c.Auth.AccessTTL <= 0 || c.Auth.RefreshTTL <= 0 {
		errs = append(errs, errors.New("auth: access_ttl and refresh_ttl must be positive"))
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("log.level %q: want debug, info, warn or error", c.Log.Level))
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		errs = append(errs, fmt.Errorf("log.format %q: want text or json", c.Log.Format))
	}
	if err := c.Ingest.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.ML.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.Immich.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.OIDC.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.OAuth.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.People.cluster().Validate(); err != nil {
		errs = append(errs, fmt.Errorf("people: %w", err))
	}
	if c.Workers.Concurrency < 0 || c.Workers.Concurrency > maxWorkers {
		errs = append(errs, fmt.Errorf("workers.concurrency %d: want 0 to %d", c.Workers.Concurrency, maxWorkers))
	}
	if c.Workers.PollInterval <= 0 {
		errs = append(errs, fmt.Errorf("workers.poll_interval %s: must be positive", c.Workers.PollInterval))
	}
	if c.ShutdownTimeout <= 0 {
		errs = append(errs, errors.New("shutdown_timeout must be positive"))
	}
	return errors.Join(errs...)
}
