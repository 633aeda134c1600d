package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"time"

	"github.com/photoctl/photoctl/ingest/geocode"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// taskRunner is a started task runner with what its kinds hold.
type taskRunner struct {
	runner     *tasks.Runner
	closeKinds func() error
	stopSplit  func() // the OCR texts' split pass (ocr_terms.go)
}

// startTasks builds a runner of the pipeline's kinds over st, requeues the
// tasks a stopped process left running (every running task when this
// process holds the data directory alone, else those whose lease expired)
// and starts it; when it runs tasks (concurrency > 0) it also splits the
// OCR texts stored without this splitter's terms, in the background
// (splitOCRTexts). On PostgreSQL workers may run on other hosts, whose
// tasks the data directory's lock says nothing about: there only expired
// leases are requeued. sig, when not nil, is the signal the services ring when
// they enqueue (tasks.NotifyOnEnqueue).
func startTasks(ctx context.Context, cfg Config, st store.Store, blobs *blob.Store, concurrency int, sig tasks.Signal,
	alone bool, log *slog.Logger, now func() time.Time) (*taskRunner, error) {
	kinds, closeKinds, warm, err := newPipeline(cfg, st, blobs, log, now)
	if err != nil {
		return nil, fmt.Errorf("build the task pipeline: %w", err)
	}
	r, err := tasks.NewRunner(st, kinds, tasks.RunnerConfig{Concurrency: concurrency, Signal: sig,
		PollInterval: cfg.Workers.PollInterval, Timeout: cfg.Ingest.taskTimeout(), Redact: redactPaths(cfg.DataDir)}, log, now)
	if err != nil {
		return nil, errors.Join(err, closeKinds())
	}
	if _, err := r.RequeueAbandoned(ctx, alone && !cfg.Database.Postgres()); err != nil {
		return nil, errors.Join(err, closeKinds())
	}
	if err := pipeline.ScheduleRestacks(ctx, st, now()); err != nil {
		return nil, errors.Join(err, closeKinds())
	}
	if err := pipeline.ScheduleRegeocodes(ctx, st, geocode.DataVersion(), now()); err != nil {
		return nil, errors.Join(err, closeKinds())
	}
	r.Start(ctx)
	stopSplit := func() {}
	if concurrency > 0 {
		go warm()
		stopSplit = splitOCRTexts(st, log, now)
	}
	return &taskRunner{runner: r, closeKinds: closeKinds, stopSplit: stopSplit}, nil
}

// redactPaths is the runner's redaction of task errors: paths under the
// data directory (however it was written in the config) become what they
// hold, others their last element (blob.Redact).
func redactPaths(dataDir string) func(string) string {
	root, err := filepath.Abs(dataDir)
	if err != nil {
		root = dataDir
	}
	return func(msg string) string { return blob.Redact(root, msg) }
}

// stop stops the runner (its handlers give their tasks back) and releases
// the kinds' resources.
func (t *taskRunner) stop() error {
	t.stopSplit()
	t.runner.Stop()
	return t.closeKinds()
}

// RunWorker runs background tasks on the data directory of cfg until ctx
// ends: `photoctl worker`, beside a running `photoctl serve` or alone. It
// runs cfg.Workers.Concurrency tasks at once, or one per core when that is
// 0 (the setting that keeps serve from running tasks itself).
func RunWorker(ctx context.Context, cfg Config, log *slog.Logger) (err error) {
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("invalid configuration: %w", err)
	}
	st, err := OpenStore(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return nil // stopped while opening the store: nothing ran, a clean stop
		}
		return err
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	// The shared data-directory lock tells a serve that starts meanwhile
	// that it is not alone, so it leaves this worker's tasks running.
	lock, alone, _, err := lockDataDir(cfg.DataDir)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, lock.Close()) }()
	n := cfg.Workers.Concurrency
	if n == 0 {
		n = runtime.NumCPU()
	}
	blobs, err := OpenBlobs(cfg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, blobs.Close()) }()
	// A stop asked for during start-up takes effect once started.
	t, err := startTasks(context.WithoutCancel(ctx), cfg, st, blobs, n, nil, alone, log, time.Now)
	if err != nil {
		return err
	}
	log.Info("photoctl worker running", "data_dir", cfg.DataDir, "blobs", cfg.Storage.location(cfg.DataDir), "concurrency", n)
	<-ctx.Done()
	log.Info("stopping; running tasks go back to the queue")
	return t.stop()
}
